"""The project's one Markdown reader."""
from .errors import InputError
from .fences import Fence
from .includes import SourceLine
from .pages import Page, markdown_files, read_page
from .site_config import SiteConfig, load_site_config

__all__ = ["Fence", "InputError", "Page", "SiteConfig", "SourceLine", "load_site_config", "markdown_files", "read_page"]
