#!/usr/bin/env node
// The `visibility` CLI; built from apps/server/src/cli (npm install builds it).
import { main } from '../dist/cli/main.js';

process.exitCode = await main(process.argv.slice(2));
