"""Character classes of the scripts that need their own handling: kana, Han ideographs and hangul.

The fragments go inside a regular expression's brackets (``rf"[{KATAKANA}{HAN}]"``); the compiled
patterns match one character.
"""

from __future__ import annotations

import re

HIRAGANA = "\u3040-\u309f"
KATAKANA = "\u30a0-\u30ff"  # the middle dot "・" and the prolonged sound mark "ー" included
HAN = "\u3400-\u9fff\uf900-\ufaff"  # extension A, unified and compatibility ideographs
HANGUL = "\uac00-\ud7af"  # syllables
UNSPACED = HIRAGANA + KATAKANA + HAN  # Japanese and Chinese: no spaces between words
CJK = UNSPACED + HANGUL

UNSPACED_CHARACTER = re.compile(f"[{UNSPACED}]")
CJK_CHARACTER = re.compile(f"[{CJK}]")
