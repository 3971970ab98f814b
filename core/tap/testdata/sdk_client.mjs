// A small MCP client on the official TypeScript SDK (@modelcontextprotocol/sdk
// 1.32.2), for core/tap's tests: the same calls through the tap and without
// it must print the same bytes.
//
//   node sdk_client.mjs stdio COMMAND ARGS...   spawn the server
//   node sdk_client.mjs http URL                Streamable HTTP
//   node sdk_client.mjs sse URL                 legacy SSE
//
// MCP_SDK is the file URL of the SDK's dist/esm folder (the peers live in
// .ci/peers/node_modules, outside this folder's resolution path).
const base = process.env.MCP_SDK;
const { Client } = await import(base + '/client/index.js');
const [mode, ...rest] = process.argv.slice(2);
let transport;
if (mode === 'stdio') {
	const { StdioClientTransport } = await import(base + '/client/stdio.js');
	transport = new StdioClientTransport({ command: rest[0], args: rest.slice(1), stderr: 'ignore' });
} else if (mode === 'http') {
	const { StreamableHTTPClientTransport } = await import(base + '/client/streamableHttp.js');
	transport = new StreamableHTTPClientTransport(new URL(rest[0]));
} else {
	const { SSEClientTransport } = await import(base + '/client/sse.js');
	transport = new SSEClientTransport(new URL(rest[0]));
}
const client = new Client({ name: 'tap-test-client', version: '1.0.0' });
await client.connect(transport);
const out = {};
out.server = client.getServerVersion();
out.tools = (await client.listTools()).tools.map((t) => t.name).sort();
out.echo = await client.callTool({ name: 'echo', arguments: { message: 'through the tap' } });
out.sum = await client.callTool({ name: 'get-sum', arguments: { a: 2, b: 40 } });
out.prompts = (await client.listPrompts()).prompts.map((p) => p.name).sort();
out.resource = await client.readResource({ uri: 'demo://resource/static/document/architecture.md' }).then(
	(r) => r.contents.length, (e) => 'error: ' + e.message);
process.stdout.write(JSON.stringify(out, null, 1) + '\n');
await client.close();
