"""What the site gives its readers, one module per feature; scripts/site_hooks.py dispatches to them."""
