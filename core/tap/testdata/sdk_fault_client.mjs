// A client on the official TypeScript SDK (@modelcontextprotocol/sdk 1.32.2)
// for core/tap's fault tests: over Streamable HTTP it calls echo three
// times and prints how each call ended, one line each.
//
//   node sdk_fault_client.mjs URL
//
// MCP_SDK is the file URL of the SDK's dist/esm folder; CALL_TIMEOUT_MS
// is each call's timeout (a dropped answer ends in it).
const base = process.env.MCP_SDK;
const { Client } = await import(base + '/client/index.js');
const { StreamableHTTPClientTransport } = await import(base + '/client/streamableHttp.js');
const client = new Client({ name: 'tap-fault-client', version: '1.0.0' });
await client.connect(new StreamableHTTPClientTransport(new URL(process.argv[2])));
const timeout = Number(process.env.CALL_TIMEOUT_MS || 60000);
const out = [];
for (const message of ['one', 'two', 'three']) {
	try {
		const r = await client.callTool({ name: 'echo', arguments: { message } }, undefined, { timeout });
		out.push(message + ': ' + r.content[0].text);
	} catch (e) {
		out.push(message + ': error ' + e.code + ' ' + e.message);
	}
}
process.stdout.write(out.join('\n') + '\n');
await client.close();
