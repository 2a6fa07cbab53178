"""A locale-aware sort key and initial letter, for the generated term and guide indexes.

A small part of each language's CLDR collation, without ICU: letters compare by their
base letter first, then by accents, then by case; each language adds the letters that its
alphabet orders on their own (sk ä č ch ô š ž, es ñ, ro ă â î ș ț), and Russian puts
Cyrillic before Latin.
"""
from __future__ import annotations

import unicodedata
from functools import lru_cache

# Letters sorted as letters of their own, each right after the base letter named.
TAILORED = {
    "es": {"n": ["ñ"]},
    "ro": {"a": ["ă", "â"], "i": ["î"], "s": ["ș"], "t": ["ț"]},
    "sk": {"a": ["ä"], "c": ["č"], "h": ["ch"], "o": ["ô"], "r": ["ř"], "s": ["š"], "z": ["ž"]},
}
CYRILLIC = "абвгдежзийклмнопрстуфхцчшщъыьэюя"  # ё sorts as е with an accent; й is a letter of its own
SAME_LETTER = {"ş": "ș", "ţ": "ț"}  # Romanian cedilla spellings of the comma letters
PUNCTUATION, DIGIT, LATIN, CYRL, OTHER = range(5)
CYRILLIC_LANGUAGES = {"ru"}


def _script_rank(script: int, lang: str) -> int:
    if lang == "ru" and script in (LATIN, CYRL):
        return {CYRL: LATIN, LATIN: CYRL}[script]
    return script


def _elements(text: str, lang: str):
    """(primary, secondary, tertiary, display) for each collation element of the text."""
    text = unicodedata.normalize("NFC", text)
    # One lower-case character per character, so that positions in both strings agree.
    lower = "".join(SAME_LETTER.get(c.lower(), c.lower()) if len(c.lower()) == 1 else c for c in text)
    tailored = sorted(((letter, base, rank + 1) for base, letters in TAILORED.get(lang, {}).items()
                       for rank, letter in enumerate(letters)), key=lambda t: -len(t[0]))
    i = 0
    while i < len(lower):
        case = int(text[i] != lower[i])
        hit = next((t for t in tailored if lower.startswith(t[0], i)), None)
        if hit:
            letter, base, rank = hit
            yield (_script_rank(LATIN, lang), ord(base), rank), "", case, letter
            i += len(letter)
            continue
        decomposed = lower[i] if lower[i] == "й" else unicodedata.normalize("NFD", lower[i])
        base, marks = decomposed[0], decomposed[1:]
        if "a" <= base <= "z":
            primary = (_script_rank(LATIN, lang), ord(base), 0)
        elif base in CYRILLIC:
            primary = (_script_rank(CYRL, lang), CYRILLIC.index(base), 0)
        elif base.isdigit():
            primary = (DIGIT, unicodedata.digit(base, 0), 0)
        elif base.isalpha():
            primary = (OTHER, ord(base), 0)
        else:
            primary = (PUNCTUATION, ord(base), 0)
        yield primary, marks, case, base
        i += 1


# The indexes of every language's build sort and head the same titles again: each is worked out once.
@lru_cache(maxsize=8192)
def sort_key(text: str, lang: str) -> tuple:
    elements = list(_elements(text, lang))
    return (tuple(e[0] for e in elements), tuple(e[1] for e in elements), tuple(e[2] for e in elements), text)


@lru_cache(maxsize=8192)
def initial(text: str, lang: str) -> str:
    """The letter the text is listed under: "Č" and "Ch" in Slovak, "E" for "Ё" in Russian; "#" for no letter."""
    first = next(iter(_elements(text, lang)), None)
    if first is None or first[0][0] in (PUNCTUATION, DIGIT):
        return "#"
    return first[3][0].upper() + first[3][1:]


def foreign_script(text: str, lang: str) -> bool:
    """Whether the text starts with a letter of a script the language is not written in (Latin "jit" in ru).

    Its initial would look like one of the language's own ("C" beside Cyrillic "С").
    """
    first = next(iter(_elements(text, lang)), None)
    own = CYRL if lang in CYRILLIC_LANGUAGES else LATIN
    return first is not None and first[0][0] in (LATIN, CYRL) and _script_rank(own, lang) != first[0][0]


@lru_cache(maxsize=None)
def alphabet(lang: str) -> tuple[str, ...]:
    """The initials in the language's order, as initial() writes them: its own script's letters first."""
    latin = [letter for base in "abcdefghijklmnopqrstuvwxyz" for letter in (base, *TAILORED.get(lang, {}).get(base, []))]
    cyrillic = [letter for letter in CYRILLIC if letter not in "ъыь"]  # no word starts with them
    letters = cyrillic + latin if lang in CYRILLIC_LANGUAGES else latin + cyrillic
    return tuple(initial(letter, lang) for letter in letters)
