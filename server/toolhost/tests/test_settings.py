"""Settings (R-settings-model, R-settings-from-call, R-secret-check): a JSON
Schema for the builder, Root and Secret kinds, values only from
`_meta["quiver/settings"]`, and check_secret."""

import os
from unittest import mock

from tests.support import TreeCase

FILES = '''
from pathlib import Path
from quiver import Root, Secret

CREDENTIAL_HELP = "A token starting with tok_."


class Settings:
    """What the builder sets.

    Attributes:
        root: Folder every path argument is confined to.
        max_bytes: Largest file read whole.
        token: API token for the index service.
    """
    root: Root = "."
    max_bytes: int = 1_000_000
    token: Secret | None = None
    label: str


def show(settings: Settings) -> dict:
    return {"root": settings.root, "max_bytes": settings.max_bytes, "label": settings.label,
            "has_token": settings.token is not None}
'''


class SettingsSchemaTests(TreeCase):
    def test_settings_schema_has_kinds_defaults_and_descriptions(self):
        schema = self.entry(FILES, "files.py")["settings_schema"]
        self.assertEqual(schema["type"], "object")
        self.assertEqual(schema["properties"]["root"], {
            "type": "string", "x-quiver-kind": "root", "default": ".",
            "description": "Folder every path argument is confined to."})
        self.assertEqual(schema["properties"]["max_bytes"], {
            "type": "integer", "default": 1000000, "description": "Largest file read whole."})
        self.assertEqual(schema["properties"]["token"], {
            "type": "string", "writeOnly": True, "x-quiver-kind": "secret",
            "x-quiver-credential-help": "A token starting with tok_.", "default": None,
            "description": "API token for the index service."})

    def test_fields_without_default_are_required(self):
        self.assertEqual(self.entry(FILES, "files.py")["settings_schema"]["required"], ["label"])

    def test_no_settings_class_is_null(self):
        self.assertIsNone(self.entry("def f() -> str:\n    return ''\n")["settings_schema"])

    def test_path_arguments_without_a_root_field_are_an_error(self):
        errors = self.errors("from pathlib import Path\n\n\ndef read(path: Path) -> str:\n    return ''\n")
        self.assertEqual(errors[0][0], 4)
        self.assertIn("add `root: Root = \".\"` to a `class Settings:`", errors[0][1])

    def test_settings_field_outside_the_table_is_an_error_with_its_line(self):
        errors = self.errors("class Settings:\n    depth: int = 1\n    when: set[str] = set()\n")
        self.assertEqual(errors[0][0], 3)
        self.assertIn("the setting `when`", errors[0][1])

    def test_two_root_fields_are_an_error(self):
        errors = self.errors("from quiver import Root\n\n\nclass Settings:\n    a: Root = '.'\n"
                             "    b: Root = '.'\n")
        self.assertEqual(errors[0][0], 6)
        self.assertIn("keep one Root", errors[0][1])


class SettingsAtCallTests(TreeCase):
    def test_settings_only_from_meta(self):
        calls = self.calls({"files.py": FILES})
        result = calls.call("files__show", {}, {"quiver/settings": {"label": "x", "max_bytes": 5}})
        self.assertEqual(result["_meta"]["quiver/outcome"], "ok")
        self.assertEqual(self.text(result), '{"root": ".", "max_bytes": 5, "label": "x", "has_token": false}')

    def test_settings_never_from_arguments(self):
        calls = self.calls({"files.py": FILES})
        result = calls.call("files__show", {"label": "from the model"},
                            {"quiver/settings": {"label": "from the builder"}})
        self.assertEqual(result["_meta"]["quiver/outcome"], "refused")
        self.assertIn("takes no argument `label`", self.text(result))

    def test_settings_never_from_the_environment(self):
        calls = self.calls({"files.py": FILES})
        with mock.patch.dict(os.environ, {"label": "env", "LABEL": "env", "TOKEN": "tok_env"}):
            result = calls.call("files__show", {}, {})
        self.assertEqual(result["_meta"]["quiver/outcome"], "failed")
        self.assertEqual(self.text(result), "SettingsError: the setting `label` of files.py is "
                                            "required and was not given; fill it in the agent's "
                                            "settings for this source")

    def test_setting_of_the_wrong_type_is_a_sentence(self):
        calls = self.calls({"files.py": FILES})
        result = calls.call("files__show", {}, {"quiver/settings": {"label": "x", "max_bytes": "big"}})
        self.assertIn("the setting `max_bytes` of files.py must be an integer, not a string",
                      self.text(result))

    def test_secret_value_is_masked_in_results(self):
        source = ("from quiver import Secret\n\n\nclass Settings:\n    token: Secret\n\n\n"
                  "def leak(settings: Settings) -> str:\n    return f'the token is {settings.token}'\n\n\n"
                  "def repr_it(settings: Settings) -> str:\n    return repr(settings.token)\n")
        calls = self.calls({"t.py": source})
        meta = {"quiver/settings": {"token": "tok_very_secret"}}
        self.assertEqual(self.text(calls.call("t__leak", {}, meta)), "the token is ***")
        self.assertEqual(self.text(calls.call("t__repr_it", {}, meta)), "Secret('***')")
