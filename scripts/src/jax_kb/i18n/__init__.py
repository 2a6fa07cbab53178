"""Translation tools: which translations follow their English page (status), recording that a
translation follows it (mark), and that it keeps the English page's code, links and ids (check)."""
from jax_kb.i18n.status import TranslationRecord, translation_status

__all__ = ["TranslationRecord", "translation_status"]
