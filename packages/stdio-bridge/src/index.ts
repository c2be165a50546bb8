export { startBridge, createBridgeServer, BRIDGE_NAME, type BridgeOptions, type RunningBridge } from './bridge.js';
export { runCli, bridgeVersion } from './cli.js';
export { REMOTE_UNAVAILABLE, RemoteUnavailableError } from './errors.js';
export { createLog, type Log } from './log.js';
export { DEFAULT_MCP_URL, MCP_URL_VARIABLE, parseBridgeCommand, usageText, type BridgeCommand } from './options.js';
export { RemoteConnection, type RemoteConnectionOptions } from './remote.js';
