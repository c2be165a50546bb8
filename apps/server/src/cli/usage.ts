/** The CLI's help text (the operating contract's commands). */
export const USAGE = `Usage: visibility <command> [options]

Commands:
  serve                         start the service (REST, MCP, site) on PORT (default 3000)
  extract-brands [--brand NAME] [--competitors "A, B"]
                                read one answer on stdin, print the brands it names as a JSON array

Configuration comes from the environment; see README.md.
`;
