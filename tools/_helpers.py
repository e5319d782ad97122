"""Small helpers the tool files of this tree import; not a tool (its name starts with _)."""


def plain_name(name: str, what: str = "name") -> str:
    """`name` unchanged when it is a bare file name; a ValueError saying what to give otherwise."""
    if not name or name in (".", "..") or "/" in name or "\\" in name:
        raise ValueError(f"the {what} {name!r} must be a plain file name, without a directory "
                         f"or an extension, e.g. 'groceries'")
    return name
