// Package demo is Spyglass's built-in demo MCP server.
//
// A new user who installed nothing else can connect to it the moment the app
// opens (the seeded catalog entry runs `spyglass --demo-server`), and the
// project's own tests use it as a server whose behaviour they control. It is
// built on mark3labs/mcp-go's server package and offers every feature an
// inspector has to show:
//
//   - tools whose raw JSON input schemas cover every row of the form
//     generation table (strings, enums, titled single and multi selects,
//     legacy enums, URIs, bounded numbers, booleans, arrays, nested objects,
//     $ref/$defs, required, defaults, descriptions, length limits and a
//     non-enum anyOf);
//   - an outputSchema with structuredContent, image, audio, resource link and
//     embedded resource results, annotations, icons and an isError result;
//   - slow_task (progress, cancellation), log_levels, flood (N notifications
//     as fast as the transport takes them);
//   - flaky_write, which saves a note and then crashes the process before it
//     answers, with read_notes and the demo://notes resource to show that the
//     write happened;
//   - server→client requests: sampling (plain and with tools, looping until
//     endTurn), form and URL elicitation, roots (and roots list_changed);
//   - text and binary resources, templates with completions, subscriptions,
//     prompts with arguments and completions, a tool that changes the tool
//     list, a task-capable tool and an experimental capability with a
//     custom method ([ExperimentalMethod]).
//
// [New] builds the server; [ServeStdio] and [NewHTTPHandler]/[ServeHTTP] run
// it. The custom experimental method is answered by those serve helpers,
// because mcp-go's MCPServer has no hook for unknown methods.
package demo
