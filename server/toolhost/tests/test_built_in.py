"""BUILT_IN = True (R-builtin-provider): the module names a tool its model's
provider runs; derivation reads the provider tool from SCHEMA, execute() is
optional and never called, and a call that reaches the host is refused."""

from tests.support import HostProcess, TreeCase, write_file

SEARCH = '''
BUILT_IN = True

SCHEMA = {"type": "openai.web_search", "name": "web_search",
          "description": "Search the web.", "args": {"searchContextSize": "low"}}



async def execute(args, ctx):
    return "must not run"
'''

BARE = '''
BUILT_IN = True
SCHEMA = {"type": "web_search_preview", "search_context_size": "high",
          "user_location": {"type": "approximate", "country": "GB"}}
'''


class BuiltInTests(TreeCase):
    def tool(self, files: dict, path: str) -> dict:
        entry = self.tree(files).catalog.entry(path, detail=True)
        self.assertEqual(entry["errors"], [])
        return entry["tools"][0]

    def test_R_builtin_provider_an_sdk_id_and_its_args_ride_in_the_behaviour(self):
        tool = self.tool({"search.py": SEARCH}, "search.py")
        self.assertEqual(tool["name"], "web_search")
        self.assertEqual(tool["behaviour"]["built_in"],
                         {"id": "openai.web_search", "args": {"searchContextSize": "low"}})

    def test_R_builtin_provider_a_responses_tool_as_written_reads_as_openai_in_camel_case(self):
        tool = self.tool({"near.py": BARE}, "near.py")
        self.assertEqual(tool["name"], "near")  # no SCHEMA["name"]: the file's stem
        self.assertEqual(tool["behaviour"]["built_in"], {
            "id": "openai.web_search_preview",
            "args": {"searchContextSize": "high",
                     "userLocation": {"type": "approximate", "country": "GB"}}})

    def test_R_builtin_provider_a_schema_naming_no_provider_tool_is_an_error_on_its_line(self):
        tree = self.tree({"x.py": "BUILT_IN = True\nSCHEMA = {'type': 'function', 'name': 'x'}\n",
                          "y.py": "BUILT_IN = True\nSCHEMA = {'type': 'telepathy'}\n",
                          "z.py": "BUILT_IN = 'yes'\nSCHEMA = {'type': 'openai.web_search'}\n"})
        x, y, z = (tree.catalog.entry(p) for p in ("x.py", "y.py", "z.py"))
        self.assertEqual(x["errors"][0]["line"], 2)
        self.assertIn('needs SCHEMA["type"] to name the provider\'s tool', x["errors"][0]["message"])
        self.assertIn("'telepathy'", y["errors"][0]["message"])
        self.assertIn("BUILT_IN is 'yes'; write True or False", z["errors"][0]["message"])

    def test_R_builtin_provider_the_host_never_calls_execute(self):
        root = self.folder() / "tools"
        write_file(root, "search.py", SEARCH)
        host = HostProcess(root)
        self.addCleanup(host.close)
        host.initialize()
        answer = host.ask("tools/call", {"name": "web_search", "arguments": {}})["result"]
        self.assertTrue(answer["isError"])
        self.assertIn("a tool the model's provider runs (openai.web_search)", answer["content"][0]["text"])
        self.assertEqual(answer["_meta"]["quiver/outcome"], "refused")
