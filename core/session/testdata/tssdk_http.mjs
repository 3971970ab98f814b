// serveHTTP serves an MCP handler of the official TypeScript SDK v2
// (createMcpHandler: a fetch-style handler) over node:http on
// 127.0.0.1:port, and says "listening on PORT" on stderr once it listens
// (core/session's tests wait for that line). Both tssdk_*.mjs servers use it.
import http from 'node:http';

export function serveHTTP(handler, port) {
	const srv = http.createServer(async (req, res) => {
		try {
			const chunks = [];
			for await (const c of req) chunks.push(c);
			const headers = new Headers();
			for (const [k, v] of Object.entries(req.headers)) {
				if (Array.isArray(v)) v.forEach((x) => headers.append(k, x));
				else if (v !== undefined) headers.set(k, v);
			}
			const response = await handler.fetch(new Request('http://' + req.headers.host + req.url, {
				method: req.method, headers,
				body: req.method === 'GET' || req.method === 'HEAD' ? undefined : Buffer.concat(chunks),
			}));
			res.writeHead(response.status, Object.fromEntries(response.headers));
			if (response.body) {
				for await (const chunk of response.body) res.write(chunk);
			}
			res.end();
		} catch (err) {
			res.writeHead(500, { 'Content-Type': 'text/plain' });
			res.end(String(err));
		}
	});
	srv.listen(port, '127.0.0.1', () => console.error('listening on ' + srv.address().port));
}
