"""An external MCP client (the Python `mcp` SDK) for grape's MCP server tests.

Usage: mcp_client.py stdio COMMAND [ARGS...]   or   mcp_client.py http URL
Reads a JSON list of calls [{"tool": NAME, "args": {...}}] on stdin; prints one JSON object:
{"tools": [{"name", "required", "properties"}], "results": [{"is_error", "text"}]}."""
import asyncio
import json
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


def text_of(result):
    return "".join(c.text for c in result.content if getattr(c, "type", "") == "text")


async def session_calls(session, calls):
    await session.initialize()
    tools = await session.list_tools()
    out = {"tools": [{"name": t.name,
                      "required": sorted(t.inputSchema.get("required", [])),
                      "properties": sorted(t.inputSchema.get("properties", {}).keys())}
                     for t in tools.tools], "results": []}
    for c in calls:
        r = await session.call_tool(c["tool"], c.get("args", {}))
        out["results"].append({"is_error": bool(r.isError), "text": text_of(r)})
    return out


async def main():
    calls = json.load(sys.stdin)
    if sys.argv[1] == "stdio":
        params = StdioServerParameters(command=sys.argv[2], args=sys.argv[3:])
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                out = await session_calls(session, calls)
    else:
        from mcp.client.streamable_http import streamablehttp_client
        async with streamablehttp_client(sys.argv[2]) as (read, write, _):
            async with ClientSession(read, write) as session:
                out = await session_calls(session, calls)
    print(json.dumps(out))


asyncio.run(main())
