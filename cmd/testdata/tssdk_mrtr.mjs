// A small MCP server on the official TypeScript SDK v2
// (@modelcontextprotocol/server 2.4.0) whose tools ask for input with
// multi round-trip requests (MRTR, protocol 2026-07-28), for the window's
// tests: the rounds, request state and checks are the SDK's.
//
//   node tssdk_mrtr.mjs      serve on stdin/stdout
//
// MCP_SERVER_SDK is the file URL of the SDK's dist/index.mjs,
// MCP_SERVER_SDK_STDIO that of dist/stdio.mjs (the peers live in
// .ci/peers/node_modules, outside this folder's resolution path).
const sdk = await import(process.env.MCP_SERVER_SDK);
const { McpServer, fromJsonSchema, inputRequired, acceptedContent, inputResponse } = sdk;
const { serveStdio } = await import(process.env.MCP_SERVER_SDK_STDIO);

function build() {
	const server = new McpServer({ name: 'tssdk-mrtr-server', version: '2.4.0-test' }, { capabilities: { tools: {} } });

	// One round: a confirmation form, echoed back.
	server.registerTool('confirm', {
		description: 'Asks the person to confirm (one input_required round)',
		inputSchema: fromJsonSchema({ type: 'object', properties: { what: { type: 'string' } }, required: ['what'] }),
	}, async ({ what }, ctx) => {
		const answer = acceptedContent(ctx.mcpReq.inputResponses, 'confirm');
		if (answer === undefined) {
			const r = inputResponse(ctx.mcpReq.inputResponses, 'confirm');
			if (r.kind === 'elicit') {
				return { content: [{ type: 'text', text: 'not confirmed: ' + r.action }] };
			}
			return inputRequired({
				inputRequests: {
					confirm: inputRequired.elicit({
						message: 'Confirm ' + what + '?',
						requestedSchema: {
							type: 'object',
							properties: { name: { type: 'string', title: 'Your name' }, ok: { type: 'boolean', title: 'OK', default: true } },
							required: ['name'],
						},
					}),
				},
			});
		}
		return { content: [{ type: 'text', text: 'confirmed ' + what + ': ' + JSON.stringify(answer) }] };
	});

	// Two rounds: who the plan is for (a form), then a draft from the
	// client's model (sampling), with the first answer kept in requestState.
	server.registerTool('plan', {
		description: 'Drafts a plan in two input rounds: a form, then sampling',
		inputSchema: fromJsonSchema({ type: 'object', properties: { topic: { type: 'string' } }, required: ['topic'] }),
	}, async ({ topic }, ctx) => {
		const state = ctx.mcpReq.requestState();
		if (state === undefined) {
			const who = acceptedContent(ctx.mcpReq.inputResponses, 'audience');
			if (who === undefined) {
				return inputRequired({
					inputRequests: {
						audience: inputRequired.elicit({
							message: 'Who is the plan for "' + topic + '"?',
							requestedSchema: { type: 'object', properties: { audience: { type: 'string', title: 'Audience', default: 'everyone' } }, required: ['audience'] },
						}),
					},
				});
			}
			return inputRequired({
				inputRequests: {
					draft: inputRequired.createMessage({
						messages: [{ role: 'user', content: { type: 'text', text: 'Write a one-line plan for ' + topic + ' for ' + who.audience } }],
						maxTokens: 100,
					}),
				},
				requestState: JSON.stringify({ audience: who.audience }),
			});
		}
		const { audience } = JSON.parse(state);
		const r = inputResponse(ctx.mcpReq.inputResponses, 'draft');
		const c = r.kind === 'sampling' ? r.result.content : undefined;
		const text = c && c.type === 'text' ? c.text : '(no draft)';
		return { content: [{ type: 'text', text: 'plan for ' + topic + ' (' + audience + '): ' + text }] };
	});
	return server;
}

serveStdio(build);
