// A small MCP server on the official TypeScript SDK v2
// (@modelcontextprotocol/server), for core/session's tests: the protocol
// behaviour (both eras, server/discover, _meta, headers, MRTR) is the SDK's.
//
//   node tssdk_server.mjs stdio          serve on stdin/stdout
//   node tssdk_server.mjs http PORT      Streamable HTTP on 127.0.0.1:PORT/mcp
//
// MCP_SERVER_SDK is the file URL of the SDK's dist/index.mjs (the peers
// live in .ci/peers/node_modules, outside this folder's resolution path);
// MCP_SERVER_SDK_STDIO that of dist/stdio.mjs.
import { serveHTTP } from './tssdk_http.mjs';

const sdk = await import(process.env.MCP_SERVER_SDK);
const { McpServer, createMcpHandler, fromJsonSchema, inputRequired, acceptedContent } = sdk;

function build() {
	const server = new McpServer({ name: 'tssdk-test-server', version: '2.4.0-test' }, { capabilities: { tools: {}, resources: {}, prompts: {} } });
	server.registerTool('echo', {
		description: 'Echoes the message; the message travels in the Mcp-Param-Message header too',
		inputSchema: fromJsonSchema({
			type: 'object',
			properties: { message: { type: 'string', 'x-mcp-header': 'Message' } },
			required: ['message'],
		}),
	}, async ({ message }) => ({ content: [{ type: 'text', text: 'echo: ' + message }] }));
	server.registerTool('confirm', {
		description: 'Asks the client to confirm (an input_required round in 2026-07-28)',
		inputSchema: fromJsonSchema({ type: 'object', properties: { what: { type: 'string' } }, required: ['what'] }),
	}, async ({ what }, ctx) => {
		const answer = acceptedContent(ctx.mcpReq.inputResponses, 'confirm');
		if (answer === undefined) {
			return inputRequired({
				inputRequests: {
					confirm: inputRequired.elicit({
						message: 'Confirm ' + what + '?',
						requestedSchema: { type: 'object', properties: { ok: { type: 'boolean', default: true } }, required: ['ok'] },
					}),
				},
			});
		}
		return { content: [{ type: 'text', text: 'confirmed ' + what + ': ' + JSON.stringify(answer) }] };
	});
	server.registerResource('note', 'test://note', { mimeType: 'text/plain' }, async (uri) => ({
		contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'a note' }],
	}));
	server.registerPrompt('greet', { description: 'Greets' }, async () => ({
		messages: [{ role: 'user', content: { type: 'text', text: 'hello' } }],
	}));
	return server;
}

const mode = process.argv[2];
if (mode === 'stdio') {
	const { serveStdio } = await import(process.env.MCP_SERVER_SDK_STDIO);
	serveStdio(build);
} else if (mode === 'http') {
	serveHTTP(createMcpHandler(build), Number(process.argv[3]));
} else {
	console.error('usage: tssdk_server.mjs stdio | http PORT');
	process.exit(2);
}
