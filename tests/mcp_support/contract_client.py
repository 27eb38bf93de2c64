"""Records what an MCP server shows a client, in full, for the contract tests (tests/mcp_contracts.rs).

Usage: contract_client.py stdio COMMAND [ARGS...]   or   contract_client.py http URL [HEADER=VALUE...]
Reads a JSON list of calls [{"tool": NAME, "args": {...}}] on stdin; prints one JSON object:
{"server": {"name", "instructions"}, "tools": [every tool as listed, by alias, without nulls],
 "results": [{"isError", "content": [...], "structuredContent"?} or {"error": {"code", "message"}}]}.
The server's version is left out (each server names its own)."""
import asyncio
import os
import json
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import McpError


def dump(model):
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)


async def session_calls(session, calls):
    init = await session.initialize()
    tools = await session.list_tools()
    out = {
        "server": {"name": init.serverInfo.name, "instructions": init.instructions},
        "tools": [dump(t) for t in tools.tools],
        "results": [],
    }
    for c in calls:
        try:
            r = dump(await session.call_tool(c["tool"], c.get("args", {})))
        except McpError as e:
            # A protocol error (an unknown tool, say): its JSON-RPC code and message.
            out["results"].append({"error": {"code": e.error.code, "message": e.error.message}})
            continue
        r.pop("_meta", None)
        r.setdefault("isError", False)
        out["results"].append(r)
    return out


async def main():
    calls = json.load(sys.stdin)
    if sys.argv[1] == "stdio":
        params = StdioServerParameters(command=sys.argv[2], args=sys.argv[3:], env=dict(os.environ))
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                out = await session_calls(session, calls)
    else:
        from mcp.client.streamable_http import streamablehttp_client

        headers = dict(h.split("=", 1) for h in sys.argv[3:])
        async with streamablehttp_client(sys.argv[2], headers=headers) as (read, write, _):
            async with ClientSession(read, write) as session:
                out = await session_calls(session, calls)
    print(json.dumps(out, indent=1, ensure_ascii=False))


asyncio.run(main())
