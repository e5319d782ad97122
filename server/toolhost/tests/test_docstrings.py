"""R-schema-docstring: the first docstring line is the description, `Args:` describes the
parameters, everything else is for the human reading the file."""

import unittest

from quiverhost.docstrings import parse


class DocstringTests(unittest.TestCase):
    def test_first_line_is_the_description(self):
        doc = parse("""List one directory, one level deep.

        Only that first line reaches the model.
        """)
        self.assertEqual(doc.first_line, "List one directory, one level deep.")

    def test_args_block_describes_parameters(self):
        doc = parse("""Fetch a page.

        Args:
            url: The address to fetch.
            timeout (int): Seconds to wait.
        """)
        self.assertEqual(doc.args, {"url": "The address to fetch.", "timeout": "Seconds to wait."})

    def test_args_continuation_lines_join_their_entry(self):
        doc = parse("""Do it.

        Args:
            body: The note itself,
                in markdown.
            subject: A name.
        """)
        self.assertEqual(doc.args["body"], "The note itself, in markdown.")
        self.assertEqual(doc.args["subject"], "A name.")

    def test_other_sections_are_ignored(self):
        doc = parse("""Do it.

        Args:
            x: An x.

        Returns:
            y: not a parameter.

        Raises:
            ValueError: when it must.
        """)
        self.assertEqual(doc.args, {"x": "An x."})

    def test_attributes_block_describes_settings_fields(self):
        doc = parse("""Settings.

        Attributes:
            root: Folder paths are confined to.
        """)
        self.assertEqual(doc.attributes, {"root": "Folder paths are confined to."})
        self.assertEqual(doc.args, {})

    def test_no_docstring_gives_nothing(self):
        self.assertIsNone(parse(None).first_line)
        self.assertIsNone(parse("   ").first_line)

    def test_unindented_prose_ends_a_section(self):
        doc = parse("""Do it.

        Args:
            x: An x.
        Note: this is prose, not a parameter.
        """)
        self.assertEqual(doc.args, {"x": "An x."})
