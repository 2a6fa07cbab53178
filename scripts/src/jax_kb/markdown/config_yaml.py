"""mkdocs.yml read as data: the tags MkDocs adds are understood, and nothing is ever imported or built.

MkDocs' own loader constructs Python objects (`!!python/name:`, `!!python/object/apply:`). The tools
only read settings, so a pull request's mkdocs.yml must not run code on the machine of whoever lints
it: `!!python/name:X` becomes a `PythonName` that only records X, and every other Python tag is
refused with its line, as plain YAML would refuse any unknown tag.
"""
from __future__ import annotations

import os

import yaml

PYTHON_NAME = "tag:yaml.org,2002:python/name:"


class PythonName(str):
    """The dotted name a `!!python/name:` tag gives; never imported."""


class ConfigLoader(yaml.SafeLoader):
    pass


def _python_name(loader: ConfigLoader, suffix: str, node: yaml.Node) -> PythonName:
    return PythonName(suffix)


def _env(loader: ConfigLoader, node: yaml.Node):
    """MkDocs' `!ENV NAME` or `!ENV [NAME, OTHER, default]`: the first variable set, else the default."""
    if isinstance(node, yaml.ScalarNode):
        names, default = [loader.construct_scalar(node)], None
    elif isinstance(node, yaml.SequenceNode):
        items = loader.construct_sequence(node)
        names, default = items[:-1] if len(items) > 1 else items, items[-1] if len(items) > 1 else None
    else:
        raise yaml.constructor.ConstructorError(None, None, "!ENV takes a name or a list of names and a default",
                                                node.start_mark)
    for name in names:
        if isinstance(name, str) and name in os.environ:
            return yaml.load(os.environ[name], Loader=yaml.SafeLoader) if os.environ[name] else None
    return default


def _relative(loader: ConfigLoader, node: yaml.Node) -> str:
    """MkDocs' `!relative`: a path MkDocs resolves at build time; the tools keep it as written."""
    return loader.construct_scalar(node) if isinstance(node, yaml.ScalarNode) else ""


ConfigLoader.add_multi_constructor(PYTHON_NAME, _python_name)
ConfigLoader.add_constructor("!ENV", _env)
ConfigLoader.add_constructor("!relative", _relative)


def load_config_yaml(stream) -> object:
    """The settings of an mkdocs.yml stream; yaml.YAMLError (with its mark) for what cannot be read."""
    return yaml.load(stream, Loader=ConfigLoader)
