"""Starts mcp-neo4j-cypher (stdio) against a Bolt URI, calls its tools through the Python MCP
client, and prints one JSON object of observations. Usage: mcp_check.py SERVER_CMD BOLT_URI"""
import asyncio
import json
import os
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


def text_of(result):
    return "".join(c.text for c in result.content if getattr(c, "type", "") == "text")


async def main():
    cmd, uri = sys.argv[1], sys.argv[2]
    env = dict(os.environ)
    env.update({
        "NEO4J_URI": uri,
        "NEO4J_USERNAME": "neo4j",
        "NEO4J_PASSWORD": "secret",
        "NEO4J_DATABASE": "neo4j",
        "NEO4J_SCHEMA_SAMPLE_SIZE": "100",
        "NEO4J_TRANSPORT": "stdio",
    })
    params = StdioServerParameters(command=cmd, args=["--transport", "stdio"], env=env)
    out = {}
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            tools = await session.list_tools()
            out["tools"] = sorted(t.name for t in tools.tools)
            schema = await session.call_tool("get_neo4j_schema", {})
            out["schema_error"] = schema.isError
            out["schema"] = json.loads(text_of(schema)) if not schema.isError else text_of(schema)
            rows = await session.call_tool(
                "read_neo4j_cypher",
                {"query": "MATCH (b:Book) WHERE b.year >= $y RETURN b.title AS title ORDER BY title LIMIT 3",
                 "params": {"y": 2020}},
            )
            out["read_error"] = rows.isError
            out["rows"] = json.loads(text_of(rows)) if not rows.isError else text_of(rows)
            refused = await session.call_tool("read_neo4j_cypher", {"query": "CREATE (:Hack {x: 1})"})
            out["write_via_read_error"] = refused.isError
            out["write_via_read_text"] = text_of(refused)[:300]
            check = await session.call_tool("read_neo4j_cypher", {"query": "MATCH (h:Hack) RETURN count(h) AS n"})
            out["hack_count"] = json.loads(text_of(check))[0]["n"]
    print(json.dumps(out))


asyncio.run(main())
