"""Vocabulary and reply phrases of the offline model, in the nine languages the assistant speaks.

Everything language-specific that ``agents.offline_model`` needs lives here, in one place: the cues
that route a visitor message to a tool, the words that join the parts of a question, and the short
phrases the model writes. Cues are compared accent-folded and lower-cased, so they may be written
with or without accents.
"""

from __future__ import annotations

OFFICIAL_WEBSITE = "https://www.chateauversailles.fr"

# Words that make a message about the weather (a date alone does not: "open on Monday?" is a
# knowledge-base question). Ambiguous words are left out: "tiempo"/"tempo" (also "time"),
# "weer" (also "again"), "soleil" (the Roi-Soleil).
WEATHER_WORDS = (
    "weather", "forecast", "rain", "raining", "rainy", "will it rain", "sunny", "snow", "snowing",
    "temperature", "temperatures", "umbrella", "thunderstorm", "degrees", "how hot", "how cold",
    "météo", "meteo", "pluie", "pleuvoir", "pleut", "pleuvra", "pluvieux", "quel temps", "beau temps",
    "ensoleillé", "neige", "neiger", "température", "températures", "parapluie", "orage", "degrés",
    "clima", "lluvia", "llover", "llueve", "lloverá", "pronóstico", "soleado", "nieve", "paraguas",
    "qué tiempo", "hará buen tiempo", "grados",
    "wetter", "wettervorhersage", "regen", "regnen", "regnet", "sonnig", "schnee", "temperatur",
    "regenschirm", "gewitter", "grad celsius",
    "pioggia", "piove", "pioverà", "piovere", "soleggiato", "neve", "temperatura", "ombrello",
    "che tempo", "previsioni", "gradi",
    "chuva", "chover", "chove", "choverá", "ensolarado", "guarda-chuva", "previsão do tempo",
    "como está o tempo", "graus",
    "het weer", "weerbericht", "weersverwachting", "regent", "regenen", "zonnig", "paraplu", "sneeuw",
    "天気", "天候", "雨", "気温", "晴れ", "雪", "傘", "予報",
    "天气", "天氣", "下雨", "气温", "氣溫", "晴天", "雨伞", "雨傘", "预报", "預報",
)  # fmt: skip

# Date expressions passed to the weather tool as written ("today" when there is none).
DATE_WORDS = (
    "today", "tonight", "tomorrow", "day after tomorrow", "this weekend", "next weekend",
    "this afternoon", "this evening",
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
    "aujourd'hui", "ce soir", "demain", "après-demain", "ce week-end", "ce weekend", "cet après-midi",
    "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche",
    "hoy", "esta tarde", "esta noche", "mañana", "pasado mañana", "este fin de semana",
    "lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo",
    "heute", "heute abend", "morgen", "übermorgen", "am wochenende", "dieses wochenende",
    "montag", "dienstag", "mittwoch", "donnerstag", "freitag", "samstag", "sonnabend", "sonntag",
    "oggi", "stasera", "domani", "dopodomani", "questo fine settimana", "nel weekend",
    "lunedì", "martedì", "mercoledì", "giovedì", "venerdì", "sabato", "domenica",
    "hoje", "hoje à noite", "amanhã", "depois de amanhã", "este fim de semana",
    "segunda-feira", "terça-feira", "quarta-feira", "quinta-feira", "sexta-feira",
    "vandaag", "vanavond", "overmorgen", "dit weekend",
    "maandag", "dinsdag", "woensdag", "donderdag", "vrijdag", "zaterdag", "zondag",
    "今日", "きょう", "今夜", "明日", "あした", "明後日", "あさって", "今週末", "週末",
    "月曜日", "火曜日", "水曜日", "木曜日", "金曜日", "土曜日", "日曜日",
    "今天", "今晚", "明天", "后天", "後天", "这个周末", "這個週末", "周末", "週末",
    "星期一", "星期二", "星期三", "星期四", "星期五", "星期六", "星期日", "星期天",
    "周一", "周二", "周三", "周四", "周五", "周六", "周日", "礼拜六", "礼拜天",
)  # fmt: skip

MONTHS = (
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
    "janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
    "novembre", "décembre",
    "enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre",
    "noviembre", "diciembre",
    "januar", "februar", "märz", "juni", "juli", "oktober", "dezember",
    "gennaio", "febbraio", "aprile", "maggio", "giugno", "luglio", "settembre", "ottobre", "dicembre",
    "janeiro", "fevereiro", "março", "maio", "junho", "julho", "setembro", "outubro", "novembro",
    "dezembro",
    "januari", "februari", "maart", "mei", "augustus", "juni", "juli",
)  # fmt: skip

# "from" words followed by the origin. Weak ones ("de", "da", "van": also "of") only count when
# the phrase after them names a known place.
ORIGIN_MARKERS = (
    "from", "depuis", "au départ de", "en partant de", "desde", "saliendo de", "vom", "dal", "dalla",
    "dallo", "dall'", "dai", "dagli", "partendo da", "partindo de", "saindo de", "vanaf",
)  # fmt: skip
WEAK_ORIGIN_MARKERS = (
    "de", "d'", "du", "del", "von", "aus", "ab", "da", "do", "dos", "van", "uit",
)  # fmt: skip
ORIGIN_MARKER_BEFORE = ("から",)  # Japanese: the origin comes first ("パリから")
ORIGIN_MARKER_AFTER = ("从", "從", "由")  # Chinese
ZH_ORIGIN_END = ("到", "去", "前往", "怎么", "怎樣", "怎样", "如何", "坐", "乘", "搭", "开车", "開車")

PLACES = (
    "airport", "aéroport", "aeropuerto", "flughafen", "aeroporto", "luchthaven", "vliegveld",
    "station", "gare", "estación", "bahnhof", "hauptbahnhof", "stazione", "estação", "treinstation",
    "paris", "parigi", "parijs", "cdg", "charles de gaulle", "charles-de-gaulle", "roissy", "orly",
    "beauvais", "montparnasse", "saint-lazare", "st lazare", "saint lazare", "gare de lyon",
    "gare du nord", "gare de l'est", "eiffel", "louvre", "disneyland", "la défense", "hotel", "hôtel",
    "空港", "駅", "パリ", "シャルル・ド・ゴール", "オルリー",
    "机场", "機場", "火车站", "火車站", "车站", "車站", "巴黎", "戴高乐", "戴高樂", "奥利",
)  # fmt: skip

# Transport words, grouped under the value passed as ``mode`` to the travel tool.
TRAVEL_MODES: dict[str, tuple[str, ...]] = {
    "train": (
        "train", "trains", "rer", "rer c", "transilien", "tren", "zug", "s-bahn", "treno", "trem",
        "trein", "電車", "列車", "火车", "火車",
    ),
    "metro": ("metro", "métro", "subway", "underground", "u-bahn", "metropolitana", "地下鉄", "地铁", "地鐵"),
    "bus": ("bus", "buses", "autobus", "autocar", "coach", "ônibus", "バス", "巴士", "公交", "公交车"),
    "car": (
        "car", "by car", "drive", "driving", "voiture", "coche", "auto", "mit dem auto", "macchina",
        "carro", "車", "开车", "開車", "汽车", "汽車", "自驾",
    ),
    "taxi": ("taxi", "taxis", "uber", "vtc", "cab", "タクシー", "出租车", "出租車", "打车"),
    "bike": ("bike", "bicycle", "vélo", "bici", "bicicleta", "fahrrad", "fiets", "自転車", "自行车"),
    "walk": (
        "walk", "walking", "on foot", "à pied", "a pie", "zu fuß", "a piedi", "a pé", "te voet", "歩いて",
        "步行",
    ),
}  # fmt: skip

GET_THERE = (
    "how do i get", "how to get", "how can i get", "get to", "getting to", "get there", "how far",
    "comment aller", "comment venir", "comment se rendre", "comment rejoindre", "aller à", "venir à",
    "cómo llegar", "cómo llego", "cómo ir", "ir a", "wie komme ich", "wie kommt man", "anreise",
    "come arrivare", "come raggiungere", "come si arriva", "como chegar", "como ir", "chegar a",
    "hoe kom ik", "hoe reis ik", "hoe kom je",
    "行き方", "行けます", "行く", "アクセス", "怎么去", "怎麼去", "如何到达", "如何到達", "怎么到", "怎麼到",
)  # fmt: skip

# Words that end an origin phrase ("from Orly to Versailles by taxi" -> "Orly").
ORIGIN_PHRASE_END = (
    "to", "towards", "into", "and", "by", "with", "in", "on", "using", "taking", "for", "how", "what",
    "à", "a", "au", "aux", "jusqu'à", "jusqu'au", "vers", "pour", "et", "en", "par", "avec",
    "hasta", "hacia", "para", "al", "y", "con", "cómo",
    "nach", "zum", "zur", "bis", "und", "mit", "im", "wie",
    "per", "fino", "verso", "e", "con", "come", "in",
    "até", "ao", "com", "como",
    "naar", "tot", "en", "met", "hoe",
)  # fmt: skip
LEADING_ARTICLES = (
    "the", "my", "our", "le", "la", "les", "l'", "mon", "ma", "notre", "el", "los", "las", "mi",
    "der", "die", "das", "dem", "den", "meinem", "il", "lo", "i", "gli", "o", "os", "as", "het",
)  # fmt: skip

# Greetings, thanks and goodbyes, by language (what a message made only of these gets back).
SMALL_TALK: dict[str, dict[str, tuple[str, ...]]] = {
    "greeting": {
        "fr": ("bonjour", "bonsoir", "salut", "coucou"),
        "en": ("hello", "hi", "hey", "good morning", "good afternoon", "good evening"),
        "es": ("hola", "buenos días", "buenas tardes", "buenas noches"),
        "de": ("hallo", "guten tag", "guten morgen", "guten abend", "servus", "moin"),
        "it": ("ciao", "buongiorno", "buonasera", "salve"),
        "pt": ("olá", "oi", "bom dia", "boa tarde", "boa noite"),
        "nl": ("hoi", "goedemorgen", "goedemiddag", "goedenavond", "dag"),
        "ja": ("こんにちは", "こんばんは", "おはようございます", "おはよう"),
        "zh": ("你好", "您好", "早上好", "晚上好", "大家好"),
    },
    "thanks": {
        "fr": ("merci", "merci beaucoup"),
        "en": ("thanks", "thank you", "thx", "cheers"),
        "es": ("gracias", "muchas gracias"),
        "de": ("danke", "danke schön", "dankeschön", "vielen dank"),
        "it": ("grazie", "grazie mille"),
        "pt": ("obrigado", "obrigada", "muito obrigado", "muito obrigada"),
        "nl": ("dank je", "dank je wel", "dank u", "dank u wel", "bedankt"),
        "ja": ("ありがとうございます", "ありがとう"),
        "zh": ("谢谢", "謝謝", "多谢", "感谢"),
    },
    "goodbye": {
        "fr": ("au revoir", "à bientôt", "bonne journée"),
        "en": ("bye", "goodbye", "see you"),
        "es": ("adiós", "hasta luego"),
        "de": ("tschüss", "auf wiedersehen"),
        "it": ("arrivederci",),
        "pt": ("tchau", "até logo"),
        "nl": ("tot ziens", "doei"),
        "ja": ("さようなら", "またね"),
        "zh": ("再见", "再見", "拜拜"),
    },
}
# Words that may surround a greeting without making it a question ("thank you very much!").
SMALL_TALK_FILLERS = (
    "you", "so", "much", "very", "a", "lot", "again", "all", "everyone", "there", "beaucoup", "à",
    "tous", "mille", "fois", "encore", "muchas", "mucho", "vielmals", "sehr", "tante", "molto",
    "muito", "heel", "erg", "wel", "hartelijk", "ok", "okay", "d'accord", "super", "great", "perfect",
    "parfait", "genial", "perfekt", "perfetto", "ótimo", "prima", "top",
)  # fmt: skip

# Words that join the parts of a question, by language ("?", ";" and "!" always do).
CONNECTORS: dict[str, tuple[str, ...]] = {
    "fr": ("et", "ainsi que", "et aussi"),
    "en": ("and", "as well as", "and also"),
    "es": ("y", "e", "así como"),
    "de": ("und", "sowie"),
    "it": ("e", "ed", "nonché"),
    "pt": ("e", "bem como"),
    "nl": ("en", "alsook"),
    "ja": ("それと", "それから", "そして", "また"),
    "zh": ("和", "以及", "还有", "還有", "另外", "并且", "並且"),
}

# Question words and fillers that carry no topic (beyond the search engine's stop words).
QUESTION_WORDS = (
    "what", "where", "when", "who", "whom", "which", "how", "why", "does", "do", "did", "is", "are",
    "can", "could", "will", "would", "should", "there", "much", "many", "please", "tell", "know",
    "want", "need", "i", "me", "my", "we", "us", "it", "get", "visit", "visiting",
    "quel", "quels", "quelle", "quelles", "comment", "combien", "où", "quand", "pourquoi", "est-ce",
    "peut", "peut-on", "peux", "puis", "puis-je", "faut", "il", "y", "a-t-il", "sont", "savoir",
    "qué", "que", "cuál", "cuáles", "dónde", "cuándo", "cómo", "cuánto", "cuánta", "cuántos",
    "puedo", "hay", "es", "son",
    "was", "wo", "wann", "wer", "welche", "welcher", "wie", "viel", "kann", "ich", "man", "gibt",
    "es", "ist", "sind",
    "cosa", "che", "dove", "quando", "chi", "quale", "quali", "come", "quanto", "quanti", "posso",
    "si", "può", "è", "sono", "c'è",
    "o", "qual", "quais", "onde", "quem", "como", "quantos", "pode", "há", "é", "são",
    "wat", "waar", "wanneer", "wie", "welke", "hoe", "hoeveel", "kan", "ik", "is", "zijn", "er",
    # common verbs that name no topic
    "see", "go", "find", "buy", "take", "use", "come", "bring", "have", "like", "best", "good",
    "possible", "voir", "aller", "trouver", "acheter", "prendre", "utiliser", "venir", "apporter",
    "avoir", "possible", "ver", "ir", "encontrar", "comprar", "tomar", "traer", "sehen", "gehen",
    "finden", "kaufen", "nehmen", "bringen", "haben", "vedere", "andare", "trovare", "comprare",
    "prendere", "portare", "levar", "trazer", "zien", "gaan", "vinden", "kopen", "nemen", "meenemen",
    "hebben",
)  # fmt: skip

# Glossary concepts that only say what kind of answer is wanted ("where", "who"...): the answer
# rarely repeats them, so they do not count when judging whether a sentence answers a question.
# Named by the concept's first English term.
QUESTION_CONCEPTS = ("when", "where", "which", "who", "how many")

# The corpus' languages, named in each reply language (for "quoted in French").
SOURCE_LANGUAGE_NAMES: dict[str, dict[str, str]] = {
    "fr": {"fr": "français", "en": "anglais"},
    "en": {"fr": "French", "en": "English"},
    "es": {"fr": "francés", "en": "inglés"},
    "de": {"fr": "Französisch", "en": "Englisch"},
    "it": {"fr": "francese", "en": "inglese"},
    "pt": {"fr": "francês", "en": "inglês"},
    "nl": {"fr": "Frans", "en": "Engels"},
    "ja": {"fr": "フランス語", "en": "英語"},
    "zh": {"fr": "法语", "en": "英语"},
}

# What the model writes, by reply language. ``intro`` takes ``{note}`` (the quoted-language note).
REPLIES: dict[str, dict[str, str]] = {
    "fr": {
        "greeting": "Bonjour ! Comment puis-je vous aider à préparer votre visite du château de Versailles ?",
        "thanks": "Avec plaisir ! Bonne visite à Versailles.",
        "goodbye": "Au revoir, et bonne visite à Versailles !",
        "intro": "Voici ce qu'indique la base de connaissances{note} :",
        "tools": "Voici ce que disent les outils de visite :",
        "quoted": "extrait en {language}",
        "partial": "La base de connaissances ne répond pas à : {aspects}. Consultez le site officiel {url}.",
        "abstain": "La base de connaissances ne répond pas à cette question. "
        "Consultez le site officiel {url}.",
    },
    "en": {
        "greeting": "Hello! How can I help you prepare your visit to the Palace of Versailles?",
        "thanks": "You're welcome! Enjoy your visit to Versailles.",
        "goodbye": "Goodbye, and enjoy your visit to Versailles!",
        "intro": "Here is what the knowledge base says{note}:",
        "tools": "Here is what the visit tools report:",
        "quoted": "quoted in {language}",
        "partial": "The knowledge base does not answer: {aspects}. Please check the official website {url}.",
        "abstain": "The knowledge base does not answer this question. "
        "Please check the official website {url}.",
    },
    "es": {
        "greeting": "¡Hola! ¿Cómo puedo ayudarle a preparar su visita al Palacio de Versalles?",
        "thanks": "¡De nada! Disfrute de su visita a Versalles.",
        "goodbye": "¡Adiós, y disfrute de su visita a Versalles!",
        "intro": "Esto es lo que dice la base de conocimientos{note}:",
        "tools": "Esto es lo que indican las herramientas de visita:",
        "quoted": "citado en {language}",
        "partial": "La base de conocimientos no responde a: {aspects}. Consulte el sitio oficial {url}.",
        "abstain": "La base de conocimientos no responde a esta pregunta. Consulte el sitio oficial {url}.",
    },
    "de": {
        "greeting": "Hallo! Wie kann ich Ihnen bei der Vorbereitung Ihres Besuchs "
        "im Schloss Versailles helfen?",
        "thanks": "Gern geschehen! Viel Freude bei Ihrem Besuch in Versailles.",
        "goodbye": "Auf Wiedersehen und viel Freude in Versailles!",
        "intro": "Das sagt die Wissensdatenbank{note}:",
        "tools": "Das melden die Besuchswerkzeuge:",
        "quoted": "Zitat auf {language}",
        "partial": "Die Wissensdatenbank beantwortet nicht: {aspects}. "
        "Bitte sehen Sie auf der offiziellen Website nach: {url}.",
        "abstain": "Die Wissensdatenbank beantwortet diese Frage nicht. "
        "Bitte sehen Sie auf der offiziellen Website nach: {url}.",
    },
    "it": {
        "greeting": "Buongiorno! Come posso aiutarla a preparare la visita alla Reggia di Versailles?",
        "thanks": "Prego! Buona visita a Versailles.",
        "goodbye": "Arrivederci e buona visita a Versailles!",
        "intro": "Ecco cosa dice la base di conoscenza{note}:",
        "tools": "Ecco cosa riportano gli strumenti di visita:",
        "quoted": "citazione in {language}",
        "partial": "La base di conoscenza non risponde a: {aspects}. Consulti il sito ufficiale {url}.",
        "abstain": "La base di conoscenza non risponde a questa domanda. Consulti il sito ufficiale {url}.",
    },
    "pt": {
        "greeting": "Olá! Como posso ajudar a preparar a sua visita ao Palácio de Versalhes?",
        "thanks": "De nada! Boa visita a Versalhes.",
        "goodbye": "Adeus, e boa visita a Versalhes!",
        "intro": "Eis o que diz a base de conhecimento{note}:",
        "tools": "Eis o que indicam as ferramentas de visita:",
        "quoted": "citado em {language}",
        "partial": "A base de conhecimento não responde a: {aspects}. Consulte o site oficial {url}.",
        "abstain": "A base de conhecimento não responde a esta pergunta. Consulte o site oficial {url}.",
    },
    "nl": {
        "greeting": "Hallo! Hoe kan ik u helpen bij het voorbereiden van uw bezoek "
        "aan het Paleis van Versailles?",
        "thanks": "Graag gedaan! Veel plezier in Versailles.",
        "goodbye": "Tot ziens, en veel plezier in Versailles!",
        "intro": "Dit zegt de kennisbank{note}:",
        "tools": "Dit melden de bezoekhulpmiddelen:",
        "quoted": "geciteerd in het {language}",
        "partial": "De kennisbank beantwoordt niet: {aspects}. Kijk op de officiële website {url}.",
        "abstain": "De kennisbank beantwoordt deze vraag niet. Kijk op de officiële website {url}.",
    },
    "ja": {
        "greeting": "こんにちは！ヴェルサイユ宮殿のご見学の準備をお手伝いします。ご質問をどうぞ。",
        "thanks": "どういたしまして！ヴェルサイユでの見学をお楽しみください。",
        "goodbye": "さようなら。ヴェルサイユでの見学をお楽しみください！",
        "intro": "ナレッジベースには次のように書かれています{note}：",
        "tools": "見学ツールからの情報です：",
        "quoted": "{language}の原文を引用",
        "partial": "ナレッジベースには次の情報がありません：{aspects}。公式サイト {url} をご確認ください。",
        "abstain": "ナレッジベースにはこの質問への答えがありません。公式サイト {url} をご確認ください。",
    },
    "zh": {
        "greeting": "您好！我可以帮您准备凡尔赛宫的参观。您想了解什么？",
        "thanks": "不客气！祝您在凡尔赛参观愉快。",
        "goodbye": "再见，祝您在凡尔赛参观愉快！",
        "intro": "知识库中的相关内容如下{note}：",
        "tools": "以下是参观工具提供的信息：",
        "quoted": "引用{language}原文",
        "partial": "知识库没有回答：{aspects}。请查看官方网站 {url}。",
        "abstain": "知识库无法回答这个问题。请查看官方网站 {url}。",
    },
}

# Glossary concepts (named by their first English term) that a sentence may answer with another
# concept's words: a yes/no question about one state is answered by the other ("will it be open in
# December?" — "it is closed in the low season"), and a month by the estate's season it falls in
# (low season: 1 November – 31 March; high season: 1 April – 31 October, as chateauversailles.fr
# defines them).
_LOW_SEASON = ("november", "december", "january", "february", "march")
_HIGH_SEASON = ("april", "may", "june", "july", "august", "september", "october")
ALSO_ANSWERED_BY: dict[str, tuple[str, ...]] = {
    "open": ("closed",),
    "closed": ("open",),
    **{month: ("low season",) for month in _LOW_SEASON},
    **{month: ("high season",) for month in _HIGH_SEASON},
}

# Words by which a later part of a question refers back to what an earlier part named ("where is
# Angelina, and do I need a ticket to go *there*?"), folded. Existential forms ("il y a", "is there")
# are removed before looking (see EXISTENTIAL).
BACK_REFERENCES: dict[str, tuple[str, ...]] = {
    "fr": (
        "y",
        "la",
        "la-bas",
        "celui-ci",
        "celle-ci",
        "ceux-ci",
        "cela",
        "ca",
        "il",
        "elle",
        "ils",
        "elles",
        "en",
    ),
    "en": ("it", "its", "there", "they", "them", "this one", "that one"),
    "es": ("alli", "alla", "ahi", "eso", "esto", "ello"),
    "de": ("dort", "dorthin", "dafur", "dazu", "darin", "dabei"),
    "it": ("li", "la", "esso", "essa", "ci"),
    "pt": ("la", "ali", "isso", "isto"),
    "nl": ("daar", "daarheen", "erheen", "ervoor", "het"),
    "ja": ("そこ", "それ", "あそこ"),
    "zh": ("那里", "那儿", "那裡", "它"),
}
EXISTENTIAL: tuple[str, ...] = (
    r"\bil y a\b",
    r"\by a(?:-t-il)?\b",
    r"\by-a-t-il\b",
    r"\bthere (?:is|are|'s)\b",
    r"\b(?:is|are) there\b",
    r"\bgibt es\b",
    r"\bes gibt\b",
    r"\bc'e\b",
    r"\bci sono\b",
    r"\bce\b",
)
# Question words that make a part with no topic of its own a question about the earlier part's
# subject ("…inaugurated when, and *by whom*?"), folded.
ELLIPTICAL_QUESTION_WORDS: tuple[str, ...] = (
    "qui",
    "quand",
    "ou",
    "combien",
    "comment",
    "pourquoi",
    "who",
    "whom",
    "when",
    "where",
    "how",
    "why",
    "quien",
    "cuando",
    "donde",
    "cuanto",
    "como",
    "wer",
    "wann",
    "wo",
    "wie",
    "warum",
    "chi",
    "quando",
    "dove",
    "quanto",
    "come",
    "perche",
    "quem",
    "onde",
    "quanto",
    "wanneer",
    "waar",
    "hoeveel",
    "waarom",
)
