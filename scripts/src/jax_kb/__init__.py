"""jax-kb: runs and checks every Python example of Markdown documentation as MkDocs shows it.

The engine is `jax_kb.snippets` (command `snippets`, pytest plugin `--snippets`) over the one
Markdown reader `jax_kb.markdown`; the rest serves the JAX knowledge base's own site.
"""
