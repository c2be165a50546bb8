#!/usr/bin/env node
// The `visibility-mcp` bin an MCP client launches with npx; built from src/cli.ts.
import { runCli } from '../dist/cli.js';

process.exitCode = await runCli(process.argv.slice(2), process.env);
// Whatever the remote left open (a socket closing slowly) must not keep a finished bridge alive.
setTimeout(() => process.exit(), 2_000).unref();
