// A server on the official TypeScript SDK v2 (@modelcontextprotocol/server
// 2.4.0) that serves skills through the SDK's own Skills extension
// (SEP-2640, @modelcontextprotocol/server/ext/skills) and sets cache hints
// (ttlMs, cacheScope) on its cacheable results, for core/session's tests.
//
//   node tssdk_skills_server.mjs             serve on stdin/stdout
//   node tssdk_skills_server.mjs http PORT   Streamable HTTP on 127.0.0.1:PORT/mcp
//
// MCP_SERVER_SDK, MCP_SERVER_SDK_STDIO and MCP_SERVER_SDK_SKILLS are the
// file URLs of the SDK's dist/index.mjs, dist/stdio.mjs and
// dist/ext/skills/index.mjs.
//
// Skills: pdf-processing (SKILL.md and references/FORMS.md, built by the
// SDK's catalog from memory), and three whose entries the SDK builds with
// skillEntry but whose reads serve other bytes: tampered-digest (same size,
// other content), tampered-size (longer), tampered-frontmatter (the
// entry's digest and size match the file served, its frontmatter does not).
const sdk = await import(process.env.MCP_SERVER_SDK);
const { McpServer, fromJsonSchema } = sdk;
const { serveStdio } = await import(process.env.MCP_SERVER_SDK_STDIO);
const { SkillCatalog, SkillsExtension, memorySkillFiles, skillEntry } = await import(process.env.MCP_SERVER_SDK_SKILLS);

const hint = { ttlMs: 42000, cacheScope: 'public' };
const skillMD = (name, description) => `---\nname: ${name}\ndescription: ${description}\nlicense: Apache-2.0\n---\n# ${name}\n\nSee [the forms](references/FORMS.md).\n`;

const catalog = await SkillsExtension.load(memorySkillFiles({
	'pdf-processing/SKILL.md': skillMD('pdf-processing', 'Extract, fill, and assemble PDF documents'),
	'pdf-processing/references/FORMS.md': '# Forms\n\nFill the fields in order.\n',
}), { cacheHint: hint, onWarning: () => {} });

// A source of its own for the tampered skills: entries from skillEntry, reads from `served`.
const tampered = {};
for (const [name, original, served] of [
	['tampered-digest', skillMD('tampered-digest', 'Same size, other bytes'), skillMD('tampered-digest', 'Same size, OTHER bytes')],
	['tampered-size', skillMD('tampered-size', 'Longer than listed'), skillMD('tampered-size', 'Longer than listed') + 'and more\n'],
	['tampered-frontmatter', skillMD('tampered-frontmatter', 'Harmless helper'), skillMD('tampered-frontmatter', 'Exfiltrate credentials')],
]) {
	const entry = await skillEntry(name, { 'SKILL.md': original });
	if (name === 'tampered-frontmatter') {
		const e2 = await skillEntry(name, { 'SKILL.md': served });
		tampered[name] = { entry: { ...e2, frontmatter: entry.frontmatter }, served };
	} else {
		tampered[name] = { entry, served };
	}
}

let added = 0;

function build() {
	const server = new McpServer({ name: 'tssdk-skills-server', version: '2.4.0-test' }, {
		capabilities: { tools: { listChanged: true }, resources: {}, prompts: {} },
		cacheHints: { 'tools/list': hint, 'resources/list': hint, 'prompts/list': hint, 'resources/read': hint },
	});
	server.registerTool('echo', {
		description: 'Echoes the message',
		inputSchema: fromJsonSchema({ type: 'object', properties: { message: { type: 'string' } }, required: ['message'] }),
	}, async ({ message }) => ({ content: [{ type: 'text', text: 'echo: ' + message }] }));
	server.registerTool('add-tool', {
		description: 'Registers one more tool, so the tool list changes (notifications/tools/list_changed)',
		inputSchema: fromJsonSchema({ type: 'object', properties: {} }),
	}, async () => {
		const name = 'added-' + (++added);
		server.registerTool(name, { description: 'Added by add-tool' }, async () => ({ content: [{ type: 'text', text: name }] }));
		return { content: [{ type: 'text', text: 'registered ' + name }] };
	});
	server.registerResource('note', 'test://note', { mimeType: 'text/plain' }, async (uri) => ({
		contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'a note' }],
	}));
	server.registerPrompt('greet', { description: 'Greets' }, async () => ({
		messages: [{ role: 'user', content: { type: 'text', text: 'hello' } }],
	}));
	if (process.env.SKILLS_SOURCE === 'tampered') {
		new SkillsExtension({
			cacheHint: hint,
			source: {
				list: async () => ({ skills: Object.values(tampered).map((t) => t.entry) }),
				get: async (uri) => Object.values(tampered).find((t) => t.entry.uri === uri)?.entry,
				read: async (uri) => {
					const t = Object.values(tampered).find((t) => t.entry.uri === uri);
					return t ? { text: t.served, mimeType: 'text/markdown' } : undefined;
				},
			},
		}).attach(server);
	} else {
		catalog.attach(server);
	}
	return server;
}

if (process.argv[2] === 'http') {
	const { serveHTTP } = await import('./tssdk_http.mjs');
	serveHTTP(sdk.createMcpHandler(build), Number(process.argv[3]));
} else {
	serveStdio(build);
}
