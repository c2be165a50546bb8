// How long get_visibility_check may hold a call. SDK clients time a request out after 60 s by default
// (Claude Desktop, Cursor and VS Code use that default or more), so the longest wait stays below it.

/** The longest wait a caller may ask for. */
export const MAX_WAIT_SECONDS = 50;

/** The wait when the caller names none: most checks finish within one such call after a start. */
export const DEFAULT_WAIT_SECONDS = 45;
