"""The fixed table (R-schema-table), row by row, and every annotation outside it as an
error against the file, with its line and a sentence saying what to write."""

from tests.support import TreeCase


def one(signature: str, imports: str = "") -> str:
    return f"{imports}\n\ndef f({signature}) -> str:\n    \"\"\"Do it.\"\"\"\n    return ''\n"


class TypeTableTests(TreeCase):
    def props(self, signature: str, imports: str = "") -> dict:
        return self.tool(one(signature, imports))["input_schema"]

    def test_str_int_float_bool_are_scalars(self):
        schema = self.props("a: str, b: int, c: float, d: bool")
        self.assertEqual(schema["properties"], {"a": {"type": "string"}, "b": {"type": "integer"},
                                                "c": {"type": "number"}, "d": {"type": "boolean"}})
        self.assertEqual(schema["required"], ["a", "b", "c", "d"])

    def test_str_vs_list_str(self):
        schema = self.props("one: str, many: list[str]")
        self.assertEqual(schema["properties"]["one"], {"type": "string"})
        self.assertEqual(schema["properties"]["many"], {"type": "array", "items": {"type": "string"}})

    def test_nested_list(self):
        schema = self.props("grid: list[list[int]]")
        self.assertEqual(schema["properties"]["grid"],
                         {"type": "array", "items": {"type": "array", "items": {"type": "integer"}}})

    def test_bare_dict_is_an_object(self):
        self.assertEqual(self.props("d: dict")["properties"]["d"], {"type": "object"})

    def test_dict_str_x_is_an_object_of_x(self):
        self.assertEqual(self.props("d: dict[str, int]")["properties"]["d"],
                         {"type": "object", "additionalProperties": {"type": "integer"}})

    def test_literal_is_an_enum_with_its_type(self):
        schema = self.props("mode: Literal['fast', 'slow']", "from typing import Literal")
        self.assertEqual(schema["properties"]["mode"], {"type": "string", "enum": ["fast", "slow"]})

    def test_literal_of_mixed_types_has_no_type(self):
        schema = self.props("level: Literal[1, 'max']", "from typing import Literal")
        self.assertEqual(schema["properties"]["level"], {"enum": [1, "max"]})

    def test_optional_not_required_without_default(self):
        schema = self.props("who: str, since: int | None")
        self.assertEqual(schema["properties"]["since"], {"type": "integer"})
        self.assertEqual(schema["required"], ["who"])

    def test_typing_optional_same_as_pipe_none(self):
        schema = self.props("since: Optional[int]", "from typing import Optional")
        self.assertEqual(schema["properties"]["since"], {"type": "integer"})
        self.assertEqual(schema["required"], [])

    def test_default_travels_into_schema_and_is_not_required(self):
        schema = self.props("path: str = '.', depth: int = 2, tags: list[str] = []")
        self.assertEqual(schema["properties"]["path"], {"type": "string", "default": "."})
        self.assertEqual(schema["properties"]["depth"], {"type": "integer", "default": 2})
        self.assertEqual(schema["properties"]["tags"]["default"], [])
        self.assertEqual(schema["required"], [])

    def test_path_is_a_string(self):
        source = ("from pathlib import Path\nfrom quiver import Root\n\n"
                  "class Settings:\n    root: Root = '.'\n\n"
                  "def f(where: Path) -> str:\n    return ''\n")
        self.assertEqual(self.tool(source)["input_schema"]["properties"]["where"], {"type": "string"})

    def test_annotated_is_read_through(self):
        schema = self.props("n: Annotated[int, 'how many']", "from typing import Annotated")
        self.assertEqual(schema["properties"]["n"], {"type": "integer"})

    def test_args_block_describes_each_property(self):
        source = ('def f(subject: str) -> str:\n    """Write.\n\n    Args:\n'
                  '        subject: File name of the note.\n    """\n    return ""\n')
        self.assertEqual(self.tool(source)["input_schema"]["properties"]["subject"],
                         {"type": "string", "description": "File name of the note."})

    def test_string_annotations_resolve(self):
        schema = self.props("n: 'int'", "from __future__ import annotations")
        self.assertEqual(schema["properties"]["n"], {"type": "integer"})


class OutsideTheTableTests(TreeCase):
    def only_error(self, source: str) -> tuple[int, str]:
        errors = self.errors(source)
        self.assertEqual(len(errors), 1, errors)
        return errors[0]

    def test_missing_hint_is_an_error_with_its_line(self):
        line, message = self.only_error("def fetch(url: str,\n          count) -> str:\n    return ''\n")
        self.assertEqual(line, 2)
        self.assertEqual(message, "`count` in fetch() has no type hint; write `count: int` (or str, "
                                  "float, bool, list[X], dict[str, X], Literal[...], X | None)")

    def test_star_args_is_an_error(self):
        line, message = self.only_error("import os\n\n\ndef f(*names: str) -> str:\n    return ''\n")
        self.assertEqual(line, 4)
        self.assertIn("takes `*names`", message)
        self.assertIn("`names: list[str]`", message)

    def test_star_kwargs_is_an_error(self):
        line, message = self.only_error("def f(a: int, **options: str) -> str:\n    return ''\n")
        self.assertEqual(line, 1)
        self.assertIn("`**options`", message)

    def test_positional_only_is_an_error(self):
        line, message = self.only_error("def f(a: int, /) -> str:\n    return ''\n")
        self.assertEqual(line, 1)
        self.assertIn("positional-only", message)
        self.assertIn("remove the `/`", message)

    def test_unsupported_annotation_is_an_error(self):
        line, message = self.only_error(one("when: datetime", "from datetime import datetime"))
        self.assertEqual(line, 3)
        self.assertIn("`when` in f() is annotated `datetime`, which is not in the fixed table", message)
        self.assertIn("write", message)

    def test_bare_list_is_an_error(self):
        _, message = self.only_error(one("tags: list"))
        self.assertIn("write what it holds, e.g. `list[str]`", message)

    def test_dict_with_int_keys_is_an_error(self):
        _, message = self.only_error(one("d: dict[int, str]"))
        self.assertIn("`dict[str, str]`", message)

    def test_tuple_is_an_error(self):
        _, message = self.only_error(one("p: tuple[int, int]"))
        self.assertIn("`list[X]`", message)

    def test_set_is_an_error(self):
        self.only_error(one("p: set[str]"))

    def test_any_is_an_error(self):
        _, message = self.only_error(one("x: Any", "from typing import Any"))
        self.assertIn("say what it holds", message)

    def test_custom_class_is_an_error(self):
        source = "class _Point:\n    pass\n\n\ndef f(p: _Point) -> str:\n    return ''\n"
        line, message = self.only_error(source)
        self.assertEqual(line, 5)
        self.assertIn("take its fields as parameters", message)

    def test_union_of_two_types_is_an_error(self):
        _, message = self.only_error(one("v: int | str"))
        self.assertIn("a union of 2 types", message)
        self.assertIn("pick one", message)

    def test_inner_unsupported_type_names_both(self):
        _, message = self.only_error(one("xs: list[bytes]"))
        self.assertIn("`list[bytes]`, and `bytes` is not in the fixed table", message)

    def test_default_that_is_not_json_is_an_error(self):
        _, message = self.only_error(one("n: int = object()"))
        self.assertIn("is not JSON", message)

    def test_unresolvable_hint_is_an_error_at_the_def(self):
        line, message = self.only_error("import os\n\ndef f(n: 'Missing') -> str:\n    return ''\n")
        self.assertEqual(line, 3)
        self.assertIn("cannot be resolved (NameError", message)

    def test_secret_as_an_argument_is_an_error(self):
        _, message = self.only_error(one("token: Secret", "from quiver import Secret"))
        self.assertIn("is a setting, not an argument", message)

    def test_what_could_be_derived_is_still_listed(self):
        entry = self.entry("def good(a: int) -> str:\n    return ''\n\n\n"
                           "def bad(b) -> str:\n    return ''\n")
        self.assertFalse(entry["offered"])
        self.assertEqual([t["name"] for t in entry["tools"]], ["t__good", "t__bad"])
        self.assertEqual(entry["tools"][0]["input_schema"]["properties"], {"a": {"type": "integer"}})
