"""The project's one Markdown reader."""
from jax_kb.markdown.errors import InputError
from jax_kb.markdown.fences import Fence
from jax_kb.markdown.includes import SourceLine
from jax_kb.markdown.pages import Page, markdown_files, read_page
from jax_kb.markdown.site_config import SiteConfig, load_site_config

__all__ = ["Fence", "InputError", "Page", "SiteConfig", "SourceLine", "load_site_config", "markdown_files", "read_page"]
