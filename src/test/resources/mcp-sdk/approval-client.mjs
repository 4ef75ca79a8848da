// A 2026-07-28 client built on the official TypeScript SDK (@modelcontextprotocol/client 2.x), run by McpSdkApprovalIT
// through `npx -p node@22 -p @modelcontextprotocol/client@<pinned>`. It connects to MCP_URL with the API key MCP_KEY,
// pins revision 2026-07-28, declares form elicitation and calls each entry of SDK_CALLS
// ([{name, arguments, approve}]) with callTool: the SDK's multi round-trip driver answers the gateway's
// `input_required` through the elicitation handler below (accept with {approve: true}, or decline) and retries.
// Prints one line `SDK-RESULT <json>`: the negotiated revision and, per call, the elicitations seen and the result.

import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';

// npx installs the package outside this file's tree, where an ESM import cannot find it: find it next to npx's .bin.
function sdkEntry() {
    for (const dir of (process.env.PATH ?? '').split(delimiter)) {
        const entry = join(dir, '..', '@modelcontextprotocol', 'client', 'dist', 'index.mjs');
        if (dir.endsWith(join('node_modules', '.bin')) && existsSync(entry)) {
            return pathToFileURL(entry).href;
        }
    }
    throw new Error('@modelcontextprotocol/client is not installed next to any node_modules/.bin on PATH');
}

const { Client, StreamableHTTPClientTransport } = await import(sdkEntry());

const calls = JSON.parse(process.env.SDK_CALLS);
let current;
const client = new Client({ name: 'amcp-sdk-approval-it', version: '1.0.0' }, {
    capabilities: { elicitation: { form: {} } },
    versionNegotiation: { mode: { pin: '2026-07-28' } },
});
client.setRequestHandler('elicitation/create', async (request) => {
    current.elicitations.push(request.params);
    return current.approve ? { action: 'accept', content: { approve: true } } : { action: 'decline' };
});
const transport = new StreamableHTTPClientTransport(new URL(process.env.MCP_URL), {
    requestInit: { headers: { Authorization: `Bearer ${process.env.MCP_KEY}` } },
});
await client.connect(transport);
const out = { era: client.getProtocolEra(), protocolVersion: client.getNegotiatedProtocolVersion(), calls: [] };
for (const call of calls) {
    current = { name: call.name, approve: call.approve, elicitations: [] };
    try {
        current.result = await client.callTool({ name: call.name, arguments: call.arguments });
    } catch (e) {
        current.error = String(e?.stack ?? e);
    }
    delete current.approve;
    out.calls.push(current);
}
await client.close();
console.log('SDK-RESULT ' + JSON.stringify(out));
