"""Masking in the host (R-secret-mask): a bound secret is *** in a call's text
in the forms a tool prints it in, the same forms the studio masks, before the
text is answered or a long result is kept in a file (R-result-cut). The cases
follow the studio's own masking tests one for one."""

import base64
import json
import os
import re
import urllib.parse

from quiverhost.masking import MASK, forms_of, masker

from tests.support import TreeCase

VALUE = "tkt_9f/Az+k= é&x y"
mask = masker([VALUE])


def b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


def b64url(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode()).decode()


class FormsTests(TreeCase):
    def test_masks_the_value_wherever_it_appears_in_a_text(self):
        self.assertEqual(mask(f"token={VALUE}; again: {VALUE}."), "token=***; again: ***.")

    def test_masks_its_base64_standard_and_url_safe_with_and_without_padding(self):
        for value in ["abcd", "abcde", "abcdef", VALUE]:
            one = masker([value])
            for form in [b64(value), b64(value).rstrip("="), b64url(value), b64url(value).rstrip("=")]:
                self.assertEqual(one(f"Authorization: {form}"), f"Authorization: {MASK}", form)

    def test_masks_the_value_inside_a_longer_base64_text_such_as_a_basic_auth_header(self):
        for user in ["u", "us", "use", "user"]:
            shown = mask(f"Basic {b64(f'{user}:{VALUE}')}")
            self.assertIn(MASK, shown, user)
            # What is left of the encoding cannot spell the value: at most a few characters at each edge.
            self.assertLessEqual(len(shown.replace(MASK, "")), len(f"Basic {b64(f'{user}:')}") + 4)

    def test_masks_its_url_encoded_forms_either_hex_case(self):
        component = urllib.parse.quote(VALUE, safe="-_.!~*'()")  # as encodeURIComponent writes it
        form = urllib.parse.urlencode({"t": VALUE})[2:]
        self.assertIn("+", form)
        self.assertEqual(mask(f"https://x.example/?t={component}&n=1"), f"https://x.example/?t={MASK}&n=1")
        self.assertEqual(mask(f"t={form}&n=1"), f"t={MASK}&n=1")
        lower = re.sub(r"%[0-9A-F]{2}", lambda m: m.group().lower(), component)
        self.assertIn("%2f", lower)
        self.assertEqual(mask(f"t={lower}"), f"t={MASK}")
        self.assertEqual(mask(f"t={urllib.parse.quote(b64(VALUE), safe='')}"), f"t={MASK}")
        for plain in (urllib.parse.quote(VALUE), urllib.parse.quote_plus(VALUE)):
            self.assertEqual(mask(f"<{plain}>"), f"<{MASK}>", plain)

    def test_masks_the_value_inside_json_text(self):
        tricky = 'pa"ss\\wörd/1\n'
        one = masker([tricky])
        self.assertEqual(one(json.dumps({"token": tricky, "n": 1}, separators=(",", ":"),
                                        ensure_ascii=False)), f'{{"token":"{MASK}","n":1}}')
        self.assertEqual(one('{"token": "pa\\"ss\\\\w\\u00f6rd\\/1\\n"}'), f'{{"token": "{MASK}"}}')

    def test_masks_its_hex_in_small_letters_and_capitals_also_inside_a_longer_hex_text(self):
        hexed = VALUE.encode().hex()
        self.assertEqual(mask(f"digest {hexed} end"), f"digest {MASK} end")
        self.assertEqual(mask(f"DIGEST {hexed.upper()} END"), f"DIGEST {MASK} END")
        self.assertEqual(mask(f"user:{VALUE}".encode().hex()), f"{b'user:'.hex()}{MASK}")
        self.assertEqual(masker(["ok"])("6f6b"), MASK)

    def test_masks_its_json_escaped_forms_ensure_ascii_or_not_and_json_inside_a_json_string(self):
        value = 'pa"ss\\wörd/1\n😀<&>\x7f'
        one = masker([value])
        self.assertEqual(one(json.dumps({"t": value})), f'{{"t": "{MASK}"}}')
        self.assertEqual(one(json.dumps({"t": value}, ensure_ascii=False)), f'{{"t": "{MASK}"}}')
        self.assertEqual(one(json.dumps({"body": json.dumps({"t": value})})), '{"body": "{\\"t\\": \\"***\\"}"}')
        compact = {"separators": (",", ":"), "ensure_ascii": False}
        self.assertEqual(one(json.dumps({"body": json.dumps({"t": value}, **compact)}, **compact)),
                         '{"body":"{\\"t\\":\\"***\\"}"}')
        go = json.dumps(value, ensure_ascii=False)[1:-1]
        go = go.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
        self.assertEqual(one(f'"t":"{go}"'), f'"t":"{MASK}"')
        upper = re.sub(r"\\u([0-9a-f]{4})", lambda m: "\\u" + m.group(1).upper(), json.dumps(value))
        self.assertIn("\\u00F6", upper)
        self.assertEqual(one(upper), f'"{MASK}"')

    def test_masks_a_long_value_such_as_a_64_kb_key_in_its_every_form(self):
        key = "".join(chr(33 + (i * 7919) % 94) for i in range(65_536))
        text = (f"key={key}; b64={b64(key)}; url={urllib.parse.quote(key, safe='')}; "
                f"hex={key.encode().hex()}; json={json.dumps(key)}")
        self.assertEqual(masker([key])(text), 'key=***; b64=***; url=***; hex=***; json="***"')

    def test_masks_several_values_at_once_the_longer_first_when_one_contains_another(self):
        many = masker(["secret-one", "secret-one-and-more", "another value"])
        self.assertEqual(many("a secret-one-and-more b secret-one c another value"), "a *** b *** c ***")

    def test_masks_a_short_value_only_where_a_whole_string_is_the_value_and_never_the_empty_one(self):
        short = masker(["ok", ""])
        self.assertEqual(short("ok"), MASK)
        self.assertEqual(short("it is ok, look"), "it is ok, look")
        self.assertEqual(masker([""])("anything"), "anything")

    def test_the_forms_are_the_ones_the_studio_looks_for(self):
        forms = set(forms_of("ab/é"))
        self.assertTrue({"ab/é", "YWIvw6k=", "YWIvw6k", "61622fc3a9", "61622FC3A9", "ab%2F%C3%A9",
                         "ab%2f%c3%a9", "ab/%C3%A9", "ab\\/\\u00e9", "ab/\\u00E9"} <= forms)
        self.assertNotIn("", forms)


LEAKS = '''
import base64
import json
import urllib.parse

from quiver import Secret


class Settings:
    token: Secret


def dump(settings: Settings) -> str:
    """Print the token every way a tool might, in a result long enough to be cut."""
    t = str(settings.token)
    forms = [t, base64.b64encode(t.encode()).decode(), t.encode().hex(), t.encode().hex().upper(),
             urllib.parse.quote(t, safe=""), json.dumps({"t": t}), json.dumps(json.dumps({"t": t}))]
    return "\\n".join(forms) + "\\n" + "x" * 30_000 + "\\n" + "\\n".join(forms)
'''

TOKEN = 'tok_"live"/9f8é+z'


class KeptFileTests(TreeCase):
    def test_a_cut_result_keeps_no_form_of_the_secret_in_its_file_or_its_text(self):
        calls = self.calls({"leaks.py": LEAKS}, self.folder())
        result = calls.call("leaks__dump", {}, {"quiver/settings": {"token": TOKEN}})
        kept = result["_meta"]["quiver/truncated"]
        with open(kept, encoding="utf-8") as file:
            whole = file.read()
        self.assertEqual(whole.count(MASK), 14)
        for form in forms_of(TOKEN):
            self.assertNotIn(form, whole)
            self.assertNotIn(form, self.text(result))

    def test_an_error_that_quotes_the_secret_hex_is_masked(self):
        source = LEAKS + "\n\ndef fail(settings: Settings) -> str:\n    raise ValueError(str(settings.token).encode().hex())\n"
        calls = self.calls({"leaks.py": source})
        result = calls.call("leaks__fail", {}, {"quiver/settings": {"token": TOKEN}})
        self.assertEqual(self.text(result), f"ValueError: {MASK}")
