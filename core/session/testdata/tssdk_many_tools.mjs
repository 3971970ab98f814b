// A server on the official TypeScript SDK v2 (@modelcontextprotocol/server)
// that lists N tools and N resources (default 10,000 each), for issue #17's
// thousand-tool measurements: `--cli --method tools/list` of Spyglass and
// of the official inspector against the same server.
//
//   node tssdk_many_tools.mjs [N]        serve on stdin/stdout
//
// Tool names carry a prefix per hundred (group07_tool0712), descriptions
// and schemas are of the usual size, and every tenth tool has annotations;
// resource URIs a folder per hundred (test://records/group07/0712).
// The SDK is found beside this file's repository (.ci/peers/node_modules)
// unless MCP_SERVER_SDK / MCP_SERVER_SDK_STDIO name it (file URLs): the
// official inspector hands a stdio server only a few environment variables.
const peers = new URL('../../../.ci/peers/node_modules/@modelcontextprotocol/server/dist/', import.meta.url);
const sdk = await import(process.env.MCP_SERVER_SDK || new URL('index.mjs', peers).href);
const { serveStdio } = await import(process.env.MCP_SERVER_SDK_STDIO || new URL('stdio.mjs', peers).href);
const { McpServer, fromJsonSchema } = sdk;

const n = Number(process.argv[2] || 10000);

// One schema object for every tool: the SDK compiles a validator per
// schema object, which for 10,000 distinct objects takes half a minute.
const inputSchema = fromJsonSchema({
	type: 'object',
	properties: {
		query: { type: 'string', description: 'What to look for' },
		limit: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
	},
	required: ['query'],
});

function build() {
	const server = new McpServer({ name: 'tssdk-many-tools', version: '2.4.0-test' }, { capabilities: { tools: {}, resources: {} } });
	for (let i = 0; i < n; i++) {
		const id = String(i).padStart(4, '0');
		const name = 'group' + String(Math.floor(i / 100)).padStart(2, '0') + '_tool' + id;
		const config = {
			title: 'Tool ' + id,
			description: 'Looks up record ' + id + ' in the test catalogue and returns it as text; the limit caps how many fields come back.',
			inputSchema,
		};
		if (i % 10 === 0) config.annotations = { readOnlyHint: true, openWorldHint: false };
		server.registerTool(name, config, async ({ query }) => ({ content: [{ type: 'text', text: name + ': ' + query }] }));
		const folder = 'test://records/group' + String(Math.floor(i / 100)).padStart(2, '0') + '/';
		server.registerResource('record' + id, folder + id, { mimeType: 'text/plain', description: 'Record ' + id },
			async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'record ' + id }] }));
	}
	return server;
}

serveStdio(build);
