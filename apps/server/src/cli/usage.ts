/** The CLI's help text (the operating contract's commands). */
export const USAGE = `Usage: visibility <command> [options]

Commands:
  serve                         start the service (REST, MCP, site) on PORT (default 3000)
  extract-brands [--brand NAME] [--competitors "A, B"]
                                read one answer on stdin, print the brands it names as a JSON array
  repeat "<question>" [--provider openai|gemini|anthropic] [--json]
                                ask one buyer question 5 times (runRepeatedBuyerQuestion)
  check <brand> [--category "<category>"] [--json]
                                does the model know, list (blind) and recommend the brand (checkBrandRecognition)
  audit <brand> --website <site> --category "<category>" [--competitors "A, B"] [--location X]
        [--language en|es] [--email addr] [--json]
                                the full audit: crawl, buyer questions, every provider sampled (startVisibilityAudit)
  credits grant <email> <n>     add n credits to an account (creating it); prints the new balance.
                                Exit 0 done, 2 bad email or n, 78 bad configuration
  watch add|list|run|history|run-due …
                                track a brand over time (docs/tracking.md); \`visibility watch --help\`

repeat, check and audit run against the configured lineup (the demo simulator when no key is set) and
spend the monthly budget. Progress goes to stderr; stdout carries the result: a readable summary,
or with --json the REST operation's JSON body (an ApiError body when the measurement could not run).

Exit codes of repeat, check and audit:
  0    measured (a repeat where some runs failed, an audit where some providers failed, still count)
  1    unexpected error
  2    usage or validation error (the REST operation's 400); nothing on stdout
  3    could not measure: budget, provider unavailable/paused/overloaded, not configured,
       store_unavailable (the audit could not be saved), or a result that measured nothing
       (a repeat where no run answered, an audit where no provider answered); code and hint on stderr
  78   bad configuration
  130  interrupted (Ctrl-C); the provider calls in flight are aborted

Configuration comes from the environment; see README.md and docs/cli.md.
`;
