/*
 * The Versailles visitor assistant as a chat bubble on any page, in one tag:
 *
 *   <script src="visitor-widget.js" data-api="https://assistant.example.org" data-lang="fr" defer></script>
 *
 * data-api        the assistant's Agent Protocol server (`make api`, or Aegra in production); required
 * data-lang       the language the widget opens in (en, fr, es, de, it, pt, nl, ja, zh); default: the
 *                 browser's; an answer in another language switches it, as on the visitor page
 * data-assistant  the graph to run; default "visitor"
 *
 * Plain JavaScript, no build step. It speaks the Agent Protocol with fetch and a small reader of
 * server-sent events rather than @langchain/langgraph-sdk: it calls three endpoints (create a
 * thread, stream a run, send feedback), and the SDK would need a bundler and triple the download.
 * Everything the model, the knowledge base or a visitor wrote is drawn as text (textContent, never
 * innerHTML); a link is made only for an http(s) address. The labels below are copied from
 * data/app/labels.toml by `python -m widget.labels` (a test fails when they differ).
 */
(function () {
  "use strict";

  const script = document.currentScript;
  if (!script || window.versaillesVisitorWidget) return; // one widget per page, even if the tag is pasted twice

  const LABELS = /* labels:begin */{
    "en": {"language_name":"English","title":"Palace of Versailles","placeholder":"Ask about your visit","examples_intro":"Try one of these questions, or ask your own in any language:","examples":["When is the palace open?","How much is a ticket for the Palace?","How do I get to Versailles by train from Paris?"],"new_conversation":"New conversation","sources":"Sources","related":"Related pages (they do not answer the question)","open_page":"Open the page on {site}","passage_in":"In “{section}”","thinking":"Looking for the answer…","kept":"Your conversation is kept: ask again in a moment.","error_empty_question":"Please type a question about your visit.","error_question_too_long":"Your question is too long: please shorten it or ask it in several parts.","error_provider":"The assistant cannot answer right now. Please try again in a moment.","error_busy":"Your previous question is still being answered: please wait a moment.","error_conversation_full":"This conversation has reached its limit of questions. Please start a new conversation and ask your question there.","error_other":"Something went wrong. Please try again.","send_message":"Send the question","assistant_message":"The assistant's answer","user_message":"Your question","answer_ready":"The answer is ready.","feedback_question":"Was this answer helpful?","helpful":"Helpful","not_helpful":"Not helpful","feedback_comment":"What was missing or wrong? (optional)","feedback_send":"Send","feedback_thanks":"Thank you for your feedback.","widget_open":"Open the visit assistant","widget_close":"Close the assistant","widget_language":"Language"},
    "fr": {"language_name":"Français","title":"Château de Versailles","placeholder":"Posez votre question sur la visite","examples_intro":"Essayez l'une de ces questions, ou posez la vôtre dans votre langue :","examples":["Quels sont les horaires d'ouverture du château ?","Combien coûte un billet pour le château ?","Comment aller à Versailles en train depuis Paris ?"],"new_conversation":"Nouvelle conversation","sources":"Sources","related":"Pages proches (elles ne répondent pas à la question)","open_page":"Ouvrir la page sur {site}","passage_in":"Dans « {section} »","thinking":"Recherche de la réponse…","kept":"Votre conversation est conservée : reposez la question dans un instant.","error_empty_question":"Saisissez une question sur votre visite.","error_question_too_long":"Votre question est trop longue : raccourcissez-la ou posez-la en plusieurs fois.","error_provider":"L'assistant ne peut pas répondre pour le moment. Réessayez dans un instant.","error_busy":"La réponse à votre question précédente est en cours : patientez un instant.","error_conversation_full":"Cette conversation a atteint sa limite de questions. Veuillez commencer une nouvelle conversation et y poser votre question.","error_other":"Une erreur est survenue. Veuillez réessayer.","send_message":"Envoyer la question","assistant_message":"Réponse de l'assistant","user_message":"Votre question","answer_ready":"La réponse est prête.","feedback_question":"Cette réponse vous a-t-elle aidé ?","helpful":"Utile","not_helpful":"Pas utile","feedback_comment":"Qu'est-ce qui manquait ou était faux ? (facultatif)","feedback_send":"Envoyer","feedback_thanks":"Merci pour votre avis.","widget_open":"Ouvrir l'assistant de visite","widget_close":"Fermer l'assistant","widget_language":"Langue"},
    "es": {"language_name":"Español","title":"Palacio de Versalles","placeholder":"Pregunte sobre su visita","examples_intro":"Pruebe una de estas preguntas o haga la suya en su idioma:","examples":["¿Cuál es el horario del palacio?","¿Cuánto cuesta una entrada al palacio?","¿Cómo llego a Versalles en tren desde París?"],"new_conversation":"Nueva conversación","sources":"Fuentes","related":"Páginas relacionadas (no responden a la pregunta)","open_page":"Abrir la página en {site}","passage_in":"En «{section}»","thinking":"Buscando la respuesta…","kept":"Su conversación se conserva: vuelva a preguntar en un momento.","error_empty_question":"Escriba una pregunta sobre su visita.","error_question_too_long":"Su pregunta es demasiado larga: acórtela o hágala en varias partes.","error_provider":"El asistente no puede responder ahora. Inténtelo de nuevo en un momento.","error_busy":"Su pregunta anterior aún se está respondiendo: espere un momento.","error_conversation_full":"Esta conversación ha alcanzado su límite de preguntas. Inicie una nueva conversación y haga allí su pregunta.","error_other":"Algo ha fallado. Inténtelo de nuevo.","send_message":"Enviar la pregunta","assistant_message":"Respuesta del asistente","user_message":"Su pregunta","answer_ready":"La respuesta está lista.","feedback_question":"¿Le ha sido útil esta respuesta?","helpful":"Útil","not_helpful":"No útil","feedback_comment":"¿Qué faltaba o era incorrecto? (opcional)","feedback_send":"Enviar","feedback_thanks":"Gracias por su opinión.","widget_open":"Abrir el asistente de visita","widget_close":"Cerrar el asistente","widget_language":"Idioma"},
    "de": {"language_name":"Deutsch","title":"Schloss Versailles","placeholder":"Fragen Sie zu Ihrem Besuch","examples_intro":"Probieren Sie eine dieser Fragen oder stellen Sie Ihre eigene in Ihrer Sprache:","examples":["Wann ist das Schloss geöffnet?","Wie viel kostet ein Ticket für das Schloss?","Welcher Zug fährt von Paris nach Versailles?"],"new_conversation":"Neues Gespräch","sources":"Quellen","related":"Verwandte Seiten (sie beantworten die Frage nicht)","open_page":"Seite auf {site} öffnen","passage_in":"In „{section}“","thinking":"Die Antwort wird gesucht…","kept":"Ihr Gespräch bleibt erhalten: Fragen Sie gleich noch einmal.","error_empty_question":"Bitte geben Sie eine Frage zu Ihrem Besuch ein.","error_question_too_long":"Ihre Frage ist zu lang: Bitte kürzen Sie sie oder stellen Sie sie in mehreren Teilen.","error_provider":"Der Assistent kann gerade nicht antworten. Bitte versuchen Sie es gleich noch einmal.","error_busy":"Ihre vorherige Frage wird noch beantwortet: Bitte warten Sie einen Moment.","error_conversation_full":"Dieses Gespräch hat die Höchstzahl an Fragen erreicht. Bitte beginnen Sie ein neues Gespräch und stellen Sie Ihre Frage dort.","error_other":"Etwas ist schiefgelaufen. Bitte versuchen Sie es noch einmal.","send_message":"Frage senden","assistant_message":"Antwort des Assistenten","user_message":"Ihre Frage","answer_ready":"Die Antwort ist da.","feedback_question":"War diese Antwort hilfreich?","helpful":"Hilfreich","not_helpful":"Nicht hilfreich","feedback_comment":"Was fehlte oder war falsch? (optional)","feedback_send":"Senden","feedback_thanks":"Danke für Ihre Rückmeldung.","widget_open":"Besuchsassistenten öffnen","widget_close":"Assistenten schließen","widget_language":"Sprache"},
    "it": {"language_name":"Italiano","title":"Reggia di Versailles","placeholder":"Fate una domanda sulla visita","examples_intro":"Provate una di queste domande, o fate la vostra nella vostra lingua:","examples":["Quali sono gli orari di apertura della reggia?","Quanto costa un biglietto per la reggia?","Come si arriva a Versailles in treno da Parigi?"],"new_conversation":"Nuova conversazione","sources":"Fonti","related":"Pagine correlate (non rispondono alla domanda)","open_page":"Apri la pagina su {site}","passage_in":"In «{section}»","thinking":"Ricerca della risposta…","kept":"La conversazione è conservata: riprovate tra un momento.","error_empty_question":"Scrivete una domanda sulla vostra visita.","error_question_too_long":"La domanda è troppo lunga: accorciatela o fatela in più parti.","error_provider":"L'assistente non può rispondere ora. Riprovate tra un momento.","error_busy":"Si sta ancora rispondendo alla domanda precedente: attendete un momento.","error_conversation_full":"Questa conversazione ha raggiunto il limite di domande. Inizi una nuova conversazione e ponga lì la sua domanda.","error_other":"Qualcosa è andato storto. Riprovate.","send_message":"Invia la domanda","assistant_message":"Risposta dell'assistente","user_message":"La vostra domanda","answer_ready":"La risposta è pronta.","feedback_question":"Questa risposta vi è stata utile?","helpful":"Utile","not_helpful":"Non utile","feedback_comment":"Cosa mancava o era sbagliato? (facoltativo)","feedback_send":"Invia","feedback_thanks":"Grazie per il vostro parere.","widget_open":"Apri l'assistente di visita","widget_close":"Chiudi l'assistente","widget_language":"Lingua"},
    "pt": {"language_name":"Português","title":"Palácio de Versalhes","placeholder":"Pergunte sobre a sua visita","examples_intro":"Experimente uma destas perguntas ou faça a sua na sua língua:","examples":["Qual é o horário de abertura do palácio?","Quanto custa um bilhete para o palácio?","Como chego a Versalhes de comboio a partir de Paris?"],"new_conversation":"Nova conversa","sources":"Fontes","related":"Páginas relacionadas (não respondem à pergunta)","open_page":"Abrir a página em {site}","passage_in":"Em «{section}»","thinking":"A procurar a resposta…","kept":"A sua conversa foi guardada: pergunte de novo daqui a um momento.","error_empty_question":"Escreva uma pergunta sobre a sua visita.","error_question_too_long":"A sua pergunta é demasiado longa: encurte-a ou faça-a em várias partes.","error_provider":"O assistente não pode responder agora. Tente de novo daqui a um momento.","error_busy":"A sua pergunta anterior ainda está a ser respondida: aguarde um momento.","error_conversation_full":"Esta conversa atingiu o limite de perguntas. Inicie uma nova conversa e faça lá a sua pergunta.","error_other":"Algo correu mal. Tente de novo.","send_message":"Enviar a pergunta","assistant_message":"Resposta do assistente","user_message":"A sua pergunta","answer_ready":"A resposta está pronta.","feedback_question":"Esta resposta foi útil?","helpful":"Útil","not_helpful":"Não foi útil","feedback_comment":"O que faltava ou estava errado? (opcional)","feedback_send":"Enviar","feedback_thanks":"Obrigado pela sua opinião.","widget_open":"Abrir o assistente de visita","widget_close":"Fechar o assistente","widget_language":"Idioma"},
    "pt-BR": {"placeholder":"Pergunte sobre sua visita","examples_intro":"Experimente uma destas perguntas ou faça a sua no seu idioma:","examples":["A que horas abre o palácio?","Quanto custa o ingresso para o palácio?","Como chego a Versalhes de trem saindo de Paris?"],"thinking":"Procurando a resposta…","kept":"Sua conversa foi salva: pergunte de novo em instantes.","error_empty_question":"Digite uma pergunta sobre sua visita.","error_question_too_long":"Sua pergunta é longa demais: encurte-a ou divida-a em várias partes.","error_provider":"O assistente não pode responder agora. Tente de novo em instantes.","error_busy":"Sua pergunta anterior ainda está sendo respondida: aguarde um momento.","error_conversation_full":"Esta conversa atingiu o limite de perguntas. Comece uma nova conversa e faça sua pergunta lá.","error_other":"Algo deu errado. Tente de novo.","user_message":"Sua pergunta","feedback_comment":"O que faltou ou estava errado? (opcional)","feedback_thanks":"Obrigado pela sua avaliação."},
    "nl": {"language_name":"Nederlands","title":"Paleis van Versailles","placeholder":"Stel een vraag over uw bezoek","examples_intro":"Probeer een van deze vragen, of stel uw eigen vraag in uw taal:","examples":["Wat zijn de openingstijden van het paleis?","Hoeveel kost een kaartje voor het paleis?","Hoe kom ik met de trein van Parijs naar Versailles?"],"new_conversation":"Nieuw gesprek","sources":"Bronnen","related":"Verwante pagina's (ze beantwoorden de vraag niet)","open_page":"Open de pagina op {site}","passage_in":"In ‘{section}’","thinking":"Het antwoord wordt gezocht…","kept":"Uw gesprek blijft bewaard: vraag het zo nog eens.","error_empty_question":"Typ een vraag over uw bezoek.","error_question_too_long":"Uw vraag is te lang: maak hem korter of stel hem in delen.","error_provider":"De assistent kan nu niet antwoorden. Probeer het zo nog eens.","error_busy":"Uw vorige vraag wordt nog beantwoord: even geduld.","error_conversation_full":"Dit gesprek heeft het maximale aantal vragen bereikt. Begin een nieuw gesprek en stel daar uw vraag.","error_other":"Er ging iets mis. Probeer het opnieuw.","send_message":"Vraag versturen","assistant_message":"Antwoord van de assistent","user_message":"Uw vraag","answer_ready":"Het antwoord is klaar.","feedback_question":"Was dit antwoord nuttig?","helpful":"Nuttig","not_helpful":"Niet nuttig","feedback_comment":"Wat ontbrak of klopte niet? (optioneel)","feedback_send":"Versturen","feedback_thanks":"Bedankt voor uw reactie.","widget_open":"Bezoekassistent openen","widget_close":"Assistent sluiten","widget_language":"Taal"},
    "ja": {"language_name":"日本語","title":"ヴェルサイユ宮殿","placeholder":"見学についてご質問ください","examples_intro":"次の質問を試すか、お好きな言語で質問してください：","examples":["宮殿の開館時間を教えてください。","宮殿の入館料を教えてください。","パリからヴェルサイユまで電車でどう行けばいいですか？"],"new_conversation":"新しい会話","sources":"出典","related":"関連ページ（質問への答えではありません）","open_page":"{site} でページを開く","passage_in":"「{section}」より","thinking":"回答を探しています…","kept":"会話は保存されています。少し待ってからもう一度お試しください。","error_empty_question":"見学についての質問を入力してください。","error_question_too_long":"質問が長すぎます。短くするか、いくつかに分けてください。","error_provider":"ただいま回答できません。少し待ってからもう一度お試しください。","error_busy":"前の質問に回答中です。少々お待ちください。","error_conversation_full":"この会話は質問数の上限に達しました。新しい会話を始めて、そちらでご質問ください。","error_other":"問題が発生しました。もう一度お試しください。","send_message":"質問を送信","assistant_message":"アシスタントの回答","user_message":"あなたの質問","answer_ready":"回答の準備ができました。","feedback_question":"この回答は役に立ちましたか？","helpful":"役に立った","not_helpful":"役に立たなかった","feedback_comment":"足りなかった点や誤り（任意）","feedback_send":"送信","feedback_thanks":"ご意見ありがとうございます。","widget_open":"見学アシスタントを開く","widget_close":"アシスタントを閉じる","widget_language":"言語"},
    "zh": {"language_name":"中文","title":"凡尔赛宫","placeholder":"请提出关于参观的问题","examples_intro":"试试下面的问题，或用您的语言提问：","examples":["凡尔赛宫的开放时间是什么？","参观凡尔赛宫要买多少钱的票？","从巴黎坐火车怎么去凡尔赛？"],"new_conversation":"新对话","sources":"出处","related":"相关页面（并未回答该问题）","open_page":"在 {site} 上打开页面","passage_in":"摘自「{section}」","thinking":"正在查找答案…","kept":"您的对话已保存：请稍后再问。","error_empty_question":"请输入关于参观的问题。","error_question_too_long":"问题太长：请缩短或分几次提问。","error_provider":"助手暂时无法回答，请稍后再试。","error_busy":"正在回答您的上一个问题，请稍候。","error_conversation_full":"此对话的提问次数已达上限。请开始新的对话，并在那里提出您的问题。","error_other":"出现问题，请重试。","send_message":"发送问题","assistant_message":"助手的回答","user_message":"您的问题","answer_ready":"回答已准备好。","feedback_question":"这个回答有帮助吗？","helpful":"有帮助","not_helpful":"没有帮助","feedback_comment":"缺少了什么或哪里有误？（可选）","feedback_send":"发送","feedback_thanks":"感谢您的反馈。","widget_open":"打开参观助手","widget_close":"关闭助手","widget_language":"语言"}
  }/* labels:end */;

  const ASSISTANT = script.dataset.assistant || "visitor";
  const ANSWER_NODE = "synthesize"; // the graph node whose model tokens are the answer (agents/graph/builder.py)
  const FULL_SCREEN = window.matchMedia("(max-width: 520px), (max-height: 520px)"); // as in STYLE
  const MAX_QUESTION_CHARS = 4000; // agents.service.MAX_QUESTION_CHARS
  const COMMENT_CHARS = 300; // app_ui.feedback.COMMENT_CHARS
  const FEEDBACK_PATH = "/visitor/feedback";
  const VISITOR_KEY = "versailles-visitor-key";

  // The citation pattern and title cleaning of agents/answer/citations.py and app_ui/visitor_view.py,
  // pure functions between the "pure" markers (tests/unit/test_widget_script.py runs them in Node
  // beside the Python ones, on the same inputs).
  /* pure:begin */
  const CITATION_GROUP = /(?:\[\s*\d{1,3}\s*(?:[,;]\s*\d{1,3}\s*)*\])+/g;
  const ORDERING_PREFIX = /^\s*(?:\d{1,4}\s*(?:[-–—)]|\.(?!\d))|0\d{0,3}(?=\s))\s*(?=\S)/;
  const FILE_SUFFIX = /\.(?:md|markdown|txt|jsonl|ndjson|html?)$/i;
  const ONLY_NUMBER = /^\d{1,4}\s*[-–—.)]?$/;

  const squash = (text) => String(text).split(/\s+/).filter(Boolean).join(" ");

  function displayTitle(text) {
    const cleaned = squash(squash(text).replace(FILE_SUFFIX, "").replaceAll("_", " ").replace(ORDERING_PREFIX, ""));
    return cleaned || squash(text);
  }

  function cleanTitle(title) {
    const parts = String(title).split("›").filter((part) => part.trim()).map(displayTitle);
    const named = parts.filter((part) => !ONLY_NUMBER.test(part));
    return (named.length ? named : parts).join(" › ") || squash(title);
  }

  /** The address as given when it is an http(s) page with a host and no space; else "". */
  function webUrl(address) {
    const text = String(address || "").trim();
    try {
      const url = new URL(text);
      return /^https?:$/.test(url.protocol) && url.hostname && !/\s/.test(text) ? url.href : "";
    } catch (error) {
      return "";
    }
  }

  const siteName = (url) => new URL(url).hostname.replace(/^www\./, "");

  /** The answer's text with its citations taken out, and an unfinished "[1" at its end held back. */
  function streamedText(raw) {
    const start = raw.lastIndexOf("[");
    const held = start >= 0 && raw.length - start <= 25 && /^\[[\d ,;]*$/.test(raw.slice(start)) ? raw.slice(0, start) : raw;
    return held.replace(new RegExp("[ \\t]*" + CITATION_GROUP.source, "g"), "");
  }
  /* pure:end */

  // ---- Languages ---------------------------------------------------------------------------------

  const LANGUAGES = Object.keys(LABELS).filter((name) => !name.includes("-"));

  function localeParts(locale) {
    const parts = String(locale || "").replace("_", "-").split("-");
    const regions = parts.slice(1).filter((part) => part.length === 2 || /^\d+$/.test(part));
    return [parts[0].toLowerCase(), regions.length ? regions[regions.length - 1].toUpperCase() : ""];
  }

  function supportedLanguage(...candidates) {
    for (const candidate of candidates) {
      const code = localeParts(candidate)[0];
      if (LANGUAGES.includes(code)) return code;
    }
    return "en";
  }

  class Words {
    constructor(language, browserLocale) {
      this.language = language;
      const [code, region] = localeParts(browserLocale);
      const variant = `${language}-${region}`;
      this.locale = code === language && region && LABELS[variant] ? variant : language;
    }

    get(key) {
      for (const table of [LABELS[this.locale], LABELS[this.language], LABELS.en]) {
        if (table && key in table) return table[key];
      }
      return key;
    }

    say(key, values) {
      return String(this.get(key)).replace(/\{(\w+)\}/g, (whole, name) => (name in values ? values[name] : whole));
    }
  }

  // ---- The Agent Protocol client ----------------------------------------------------------------

  class ApiError extends Error {
    /** ``kind``: what the front door named its refusal ("busy", "conversation_full"), or "". */
    constructor(status, kind = "") {
      super(`The assistant's server answered HTTP ${status}.`);
      this.status = status;
      this.kind = kind;
    }
  }

  /** This tab's visitor token (192 random bits, base64url): the server keeps each visitor's threads
   * to the token that made them, so it stays in this tab (sessionStorage) and goes nowhere else. */
  function visitorKey() {
    const draw = () => btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(24)))).replaceAll("+", "-").replaceAll("/", "_");
    try {
      let key = sessionStorage.getItem(VISITOR_KEY);
      if (!key) sessionStorage.setItem(VISITOR_KEY, (key = draw()));
      return key;
    } catch (error) {
      return (visitorKey.unstored ||= draw()); // storage refused: this page only
    }
  }

  class AgentApi {
    constructor(base) {
      this.base = base.replace(/\/+$/, "");
    }

    async post(path, body, signal) {
      const response = await fetch(this.base + path, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${visitorKey()}` },
        body: JSON.stringify(body),
        credentials: "omit",
        signal,
      });
      if (!response.ok) {
        const refusal = await response.json().catch(() => ({}));
        throw new ApiError(response.status, typeof refusal.kind === "string" ? refusal.kind : "");
      }
      return response;
    }

    async createThread(signal) {
      const thread = await (await this.post("/threads", {}, signal)).json();
      return thread.thread_id;
    }

    /** Start a run on the thread; its body streams the events (read with serverSentEvents). */
    startRun(threadId, question, signal) {
      return this.post(
        `/threads/${encodeURIComponent(threadId)}/runs/stream`,
        {
          assistant_id: ASSISTANT,
          input: { messages: [{ role: "user", content: question }] },
          stream_mode: ["messages-tuple", "updates"],
        },
        signal,
      );
    }

    feedback(threadId, turnId, verdict, comment) {
      return this.post(FEEDBACK_PATH, { thread_id: threadId, turn_id: turnId, verdict, comment: comment || null });
    }
  }

  /** Server-sent events from a response body: blocks separated by a blank line, JSON in "data:". */
  async function* serverSentEvents(body) {
    const reader = body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    let carriageReturn = false; // a "\r\n" split between two reads must stay one line end
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      let text = (carriageReturn ? "\r" : "") + value;
      carriageReturn = text.endsWith("\r");
      if (carriageReturn) text = text.slice(0, -1);
      buffer += text.replace(/\r\n?/g, "\n");
      let end;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let event = "message";
        const data = [];
        for (const line of block.split("\n")) {
          if (line.startsWith("event:")) event = line.slice(6).trim();
          else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
        }
        if (data.length) yield { event, data: JSON.parse(data.join("\n")) };
      }
    }
  }

  /** The text of a streamed message chunk (a string, or a list of content blocks). */
  function chunkText(message) {
    const content = message && message.content;
    if (typeof content === "string") return content;
    return Array.isArray(content) ? content.map((block) => (typeof block === "string" ? block : block.text || "")).join("") : "";
  }

  // ---- Drawing -----------------------------------------------------------------------------------

  /** An element with attributes and children; a string child becomes a text node, never markup. */
  function el(tag, attributes, ...children) {
    const element = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) {
      if (value === false || value == null) continue;
      if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
      else element.setAttribute(name, value === true ? "" : value);
    }
    for (const child of children.flat(Infinity)) {
      if (child != null && child !== false) element.append(typeof child === "string" ? document.createTextNode(child) : child);
    }
    return element;
  }

  const ICONS = {
    chat: "M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z",
    send: "M3 20.5 21 12 3 3.5v6.5l12 2-12 2z",
    close: "M6 6l12 12M18 6 6 18",
    plus: "M12 5v14M5 12h14",
    up: "M7 11v9H4v-9zm3 9h7.5a2 2 0 0 0 2-1.6l1.3-6A2 2 0 0 0 18.8 10H14l.8-4a1.6 1.6 0 0 0-3-1L10 10z",
    down: "M17 13V4h3v9zm-3-9H6.5a2 2 0 0 0-2 1.6l-1.3 6A2 2 0 0 0 5.2 14H10l-.8 4a1.6 1.6 0 0 0 3 1L14 14z",
  };

  function icon(name) {
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("viewBox", "0 0 24 24");
    svg.setAttribute("aria-hidden", "true");
    svg.setAttribute("focusable", "false");
    const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
    path.setAttribute("d", ICONS[name]);
    svg.append(path);
    return svg;
  }

  /** Text with each [n] a link to its source's page (a plain number when the source is no web page). */
  function citedNodes(text, urls) {
    const nodes = [];
    let last = 0;
    for (const match of text.matchAll(CITATION_GROUP)) {
      nodes.push(text.slice(last, match.index));
      for (const number of match[0].match(/\d+/g)) {
        const url = urls.get(Number(number));
        nodes.push(
          url
            ? el("a", { href: url, target: "_blank", rel: "noopener noreferrer", class: "cite" }, `[${number}]`)
            : el("span", { class: "cite" }, `[${number}]`),
        );
      }
      last = match.index + match[0].length;
    }
    nodes.push(text.slice(last));
    return nodes;
  }

  /** One paragraph of the answer: its **bold** runs (the only Markdown the agent writes there) in
   * <strong>, every character as text, each [n] linked. */
  function citedParagraph(text, urls) {
    const runs = text.split(/\*\*(.+?)\*\*/s); // odd indexes: the bold runs
    return el("p", { class: "answer-text" }, runs.map((run, index) => (index % 2 ? el("strong", {}, citedNodes(run, urls)) : citedNodes(run, urls))));
  }

  /** The answer's sources, each once under its number: clean title, site, link, cited passages. */
  function sourceList(reply, words) {
    const citations = reply.citations || [];
    const related = citations.length > 0 && citations.every((c) => (reply.related || []).includes(c.number));
    const items = citations.map((citation) => {
      const url = webUrl(citation.url || citation.source);
      const site = url ? siteName(url) : "";
      const title = cleanTitle(citation.title || "") || site;
      const passages = (citation.passages || []).map((passage) =>
        el(
          "div",
          { class: "passage" },
          passage.headings ? el("p", { class: "section" }, words.say("passage_in", { section: cleanTitle(passage.headings) })) : null,
          el("blockquote", {}, String(passage.text || "").replace(/^[ \t]{0,3}#{1,6}[ \t]+/gm, "")), // a heading's marks go
        ),
      );
      return el(
        "li",
        {},
        el(
          "details",
          {},
          el("summary", {}, `[${citation.number}] ${title}`, site ? el("span", { class: "site" }, ` · ${site}`) : null),
          url ? el("p", {}, el("a", { href: url, target: "_blank", rel: "noopener noreferrer" }, words.say("open_page", { site }))) : null,
          passages,
        ),
      );
    });
    return [el("h3", { class: "sources-title" }, words.get(related ? "related" : "sources")), el("ol", { class: "sources" }, items)];
  }

  // ---- The widget --------------------------------------------------------------------------------

  class VisitorWidget {
    constructor(api, language) {
      this.api = api;
      this.browserLocale = navigator.language;
      this.words = new Words(language, this.browserLocale);
      this.threadId = null;
      this.running = null; // the AbortController of the run being streamed
      this.host = el("div", { class: "versailles-visitor-widget" });
      const root = this.host.attachShadow({ mode: "open" });
      root.append(el("style", {}, STYLE));
      root.append(this.build());
      this.applyWords();
    }

    build() {
      this.launcher = el("button", { class: "launcher", type: "button", "aria-expanded": "false", "aria-controls": "vw-panel", onclick: () => this.toggle() }, icon("chat"));
      this.titleText = el("h2", { id: "vw-title" });
      this.languageLabel = el("label", { for: "vw-language", class: "visually-hidden" });
      this.languageChoice = el(
        "select",
        { id: "vw-language", onchange: () => this.setLanguage(this.languageChoice.value) },
        LANGUAGES.map((code) => el("option", { value: code, lang: code }, String(LABELS[code].language_name))),
      );
      this.newButton = el("button", { type: "button", class: "new", onclick: () => this.newConversation() }, icon("plus"), el("span"));
      this.closeButton = el("button", { type: "button", class: "close", onclick: () => this.close() }, icon("close"));
      this.conversation = el("div", { class: "conversation", role: "region", tabindex: "0", "aria-labelledby": "vw-title" });
      this.status = el("p", { class: "visually-hidden", role: "status", "aria-live": "polite" });
      this.questionLabel = el("label", { for: "vw-question", class: "visually-hidden" });
      this.question = el("textarea", { id: "vw-question", rows: "2", maxlength: String(MAX_QUESTION_CHARS), onkeydown: (event) => this.onKey(event) });
      this.sendButton = el("button", { type: "submit", class: "send" }, icon("send"));
      this.form = el("form", { onsubmit: (event) => { event.preventDefault(); this.ask(this.question.value); } }, this.questionLabel, this.question, this.sendButton);
      this.panel = el(
        "section",
        { id: "vw-panel", class: "panel", role: "dialog", "aria-labelledby": "vw-title", hidden: true, onkeydown: (event) => this.onPanelKey(event) },
        el("header", {}, this.titleText, el("div", { class: "tools" }, this.languageLabel, this.languageChoice, this.newButton, this.closeButton)),
        this.conversation,
        this.status,
        this.form,
      );
      this.root = el("div", { class: "root" }, this.panel, this.launcher);
      this.showIntro();
      return this.root;
    }

    /** Every label of the frame in the current language (the conversation keeps the words it was written in). */
    applyWords() {
      const words = this.words;
      this.root.setAttribute("lang", words.locale);
      this.launcher.setAttribute("aria-label", words.get("widget_open"));
      this.titleText.textContent = words.get("title");
      this.languageLabel.textContent = words.get("widget_language");
      this.languageChoice.value = words.language;
      this.newButton.lastChild.textContent = words.get("new_conversation");
      this.closeButton.setAttribute("aria-label", words.get("widget_close"));
      this.questionLabel.textContent = words.get("placeholder");
      this.question.placeholder = words.get("placeholder");
      this.sendButton.setAttribute("aria-label", words.get("send_message"));
      if (this.intro) this.showIntro();
    }

    setLanguage(language) {
      if (language === this.words.language) return;
      this.words = new Words(language, this.browserLocale);
      this.applyWords();
    }

    showIntro() {
      const words = this.words;
      const intro = el(
        "div",
        { class: "intro" },
        el("p", {}, words.get("examples_intro")),
        el("ul", {}, words.get("examples").map((example) => el("li", {}, el("button", { type: "button", class: "example", onclick: () => this.ask(example) }, example)))),
      );
      if (this.intro) this.intro.replaceWith(intro);
      else this.conversation.append(intro);
      this.intro = intro;
    }

    toggle() {
      if (this.panel.hidden) this.open();
      else this.close();
    }

    open() {
      this.panel.setAttribute("aria-modal", FULL_SCREEN.matches ? "true" : "false");
      this.panel.hidden = false;
      this.launcher.setAttribute("aria-expanded", "true");
      this.question.focus();
    }

    close() {
      this.panel.hidden = true;
      this.launcher.setAttribute("aria-expanded", "false");
      this.launcher.focus();
    }

    /** Escape closes; when the panel fills the screen, Tab cycles inside it (the page is hidden behind). */
    onPanelKey(event) {
      if (event.key === "Escape") this.close();
      if (event.key !== "Tab" || !FULL_SCREEN.matches) return;
      const focusable = [...this.panel.querySelectorAll("button, select, textarea, input, a[href], summary, [tabindex='0']")].filter(
        (element) => !element.disabled && element.getClientRects().length > 0,
      );
      const active = this.host.shadowRoot.activeElement;
      const [first, last] = [focusable[0], focusable[focusable.length - 1]];
      if (event.shiftKey ? active === first : active === last) {
        event.preventDefault();
        (event.shiftKey ? last : first).focus();
      }
    }

    onKey(event) {
      if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        this.ask(this.question.value);
      }
    }

    newConversation() {
      if (this.running) this.running.abort();
      this.running = null;
      this.threadId = null;
      this.conversation.replaceChildren();
      this.intro = null;
      this.showIntro();
      this.setBusy(false);
      this.status.textContent = "";
      this.question.value = "";
      this.question.focus();
    }

    setBusy(busy) {
      this.sendButton.disabled = busy;
      this.conversation.setAttribute("aria-busy", busy ? "true" : "false");
    }

    /** Scroll the conversation so that ``element`` starts at its top (the answer streams in below). */
    scrollToTop(element) {
      this.conversation.scrollTop = Math.max(0, element.offsetTop - 8);
    }

    async ask(text) {
      const question = String(text || "").trim();
      if (this.running) return; // one question at a time: the send button says so by being disabled
      if (this.intro) {
        this.intro.remove();
        this.intro = null;
      }
      const words = this.words;
      this.question.value = "";
      const asked = el("article", { class: "message question", "aria-label": words.get("user_message"), hidden: !question }, el("p", {}, question));
      this.conversation.append(asked);
      const answer = el("article", { class: "message answer", "aria-label": words.get("assistant_message"), "aria-busy": "true" });
      const body = el("div", { class: "answer-body" }, el("p", { class: "thinking" }, words.get("thinking")));
      answer.append(body);
      this.conversation.append(answer);
      this.scrollToTop(asked);
      if (!question || question.length > MAX_QUESTION_CHARS) {
        this.fail(answer, body, question ? "error_question_too_long" : "error_empty_question", false);
        return;
      }
      const running = (this.running = new AbortController());
      this.setBusy(true);
      this.status.textContent = words.get("thinking");
      try {
        const final = await this.stream(question, body, running.signal);
        if (running.signal.aborted) return;
        if (!final.reply || !final.reply.text) throw new ApiError("no answer");
        this.finish(answer, body, final);
      } catch (error) {
        if (running.signal.aborted) return;
        const kind = errorKind(error);
        this.fail(answer, body, kind, kind !== "error_conversation_full");
        // The question is not lost: it waits in the box of a new conversation, sent with one key.
        if (kind === "error_conversation_full") body.append(this.startAgainWith(question));
      } finally {
        if (this.running === running) {
          this.running = null;
          this.setBusy(false);
        }
      }
    }

    /** Stream one run: the answer's tokens drawn as they come, its final state returned. */
    async stream(question, body, signal) {
      const fresh = !this.threadId;
      if (fresh) this.threadId = await this.api.createThread(signal);
      let response;
      try {
        response = await this.api.startRun(this.threadId, question, signal);
      } catch (error) {
        // The server forgot the thread (langgraph dev restarted, retention): go on in a new one.
        if (fresh || !(error instanceof ApiError) || error.status !== 404) throw error;
        this.threadId = await this.api.createThread(signal);
        response = await this.api.startRun(this.threadId, question, signal);
      }
      const final = { reply: null, language: "", turnId: "" };
      let raw = "";
      let live = null;
      // Events: "messages" (the model's tokens), "updates" (what each node returned), "error".
      for await (const { event, data } of serverSentEvents(response.body)) {
        if (event === "error") throw new ApiError("run");
        if (event === "messages" && Array.isArray(data)) {
          const [message, metadata] = data;
          if ((metadata || {}).langgraph_node !== ANSWER_NODE || !String(message.type || "").endsWith("Chunk")) continue;
          raw += chunkText(message);
          if (!live) body.replaceChildren((live = el("p", { class: "answer-text streaming" })));
          live.textContent = streamedText(raw).replaceAll("**", "");
        } else if (event === "updates" && data && typeof data === "object") {
          for (const update of Object.values(data)) {
            if (!update || typeof update !== "object") continue;
            if (update.reply && (update.reply.text || (update.reply.citations || []).length)) final.reply = update.reply;
            if (typeof update.language === "string" && update.language) final.language = update.language;
            if (typeof update.turn_id === "string") final.turnId = update.turn_id;
          }
        }
      }
      return final;
    }

    finish(answer, body, final) {
      if (final.language && LANGUAGES.includes(final.language)) this.setLanguage(final.language);
      const words = this.words;
      answer.setAttribute("aria-label", words.get("assistant_message"));
      answer.previousElementSibling.setAttribute("aria-label", words.get("user_message"));
      const urls = new Map((final.reply.citations || []).map((c) => [c.number, webUrl(c.url || c.source)]));
      body.replaceChildren(...String(final.reply.text).split(/\n{2,}/).filter((part) => part.trim()).map((part) => citedParagraph(part.trim(), urls)));
      if ((final.reply.citations || []).length) answer.append(...sourceList(final.reply, words));
      if (final.turnId) answer.append(this.feedback(final.turnId, this.threadId, words));
      answer.setAttribute("aria-busy", "false");
      this.status.textContent = words.get("answer_ready");
    }

    fail(answer, body, kind, kept) {
      const words = this.words;
      const key = kind in (LABELS.en || {}) ? kind : "error_other";
      body.replaceChildren(el("p", { class: "error", role: "alert" }, words.get(key)), kept ? el("p", { class: "kept" }, words.get("kept")) : null);
      answer.setAttribute("aria-busy", "false");
      this.status.textContent = "";
    }

    /** The "new conversation" button of a full conversation: it opens one with ``question`` ready to send. */
    startAgainWith(question) {
      const again = () => {
        this.newConversation();
        this.question.value = question;
      };
      return el("button", { type: "button", class: "again", onclick: again }, icon("plus"), el("span", {}, this.words.get("new_conversation")));
    }

    /** Helpful / not helpful, then an optional short comment after "not helpful", then thanks, once the
     * server said it kept the verdict; when it did not, a sentence and the same buttons to try again. */
    feedback(turnId, threadId, words) {
      const box = el("div", { class: "feedback" });
      const failed = el("p", { class: "error", role: "alert", hidden: "" }, words.get("error_other"));
      const send = async (verdict, comment, then, controls) => {
        controls.forEach((control) => (control.disabled = true));
        const kept = await this.api.feedback(threadId, turnId, verdict, comment).then(() => true, () => false);
        controls.forEach((control) => (control.disabled = false));
        if (kept) return then();
        failed.hidden = false; // role=alert: read out at once
      };
      const thank = () => {
        const thanks = el("p", { class: "thanks", tabindex: "-1" }, words.get("feedback_thanks"));
        box.replaceChildren(thanks);
        thanks.focus();
      };
      const askComment = () => {
        const field = el("input", { id: `vw-comment-${turnId}`, type: "text", maxlength: String(COMMENT_CHARS) });
        const submit = el("button", { type: "submit" }, words.get("feedback_send"));
        const submitted = (event) => {
          event.preventDefault();
          failed.hidden = true;
          if (field.value.trim()) send("not_helpful", field.value.trim(), thank, [field, submit]);
          else thank(); // the verdict itself is already kept
        };
        const form = el(
          "form",
          { class: "comment", onsubmit: submitted },
          el("label", { for: field.id }, words.get("feedback_comment")),
          el("div", { class: "comment-row" }, field, submit),
        );
        box.replaceChildren(form, failed);
        field.focus();
      };
      const verdicts = el("div", { class: "verdicts" });
      const helpful = el("button", { type: "button", onclick: () => { failed.hidden = true; send("helpful", "", thank, [helpful, notHelpful]); } }, icon("up"), el("span", {}, words.get("helpful")));
      const notHelpful = el("button", { type: "button", onclick: () => { failed.hidden = true; send("not_helpful", "", askComment, [helpful, notHelpful]); } }, icon("down"), el("span", {}, words.get("not_helpful")));
      verdicts.append(helpful, notHelpful);
      box.append(el("p", {}, words.get("feedback_question")), verdicts, failed);
      return box;
    }
  }

  /** The visitor's sentence for what went wrong (labels error_*). */
  function errorKind(error) {
    if (error instanceof ApiError && error.kind === "conversation_full") return "error_conversation_full";
    if (error instanceof ApiError && error.status === 409) return "error_busy";
    return "error_provider"; // the server unreachable, refusing (429) or failing: try again in a moment
  }

  const STYLE = `
:host { all: initial; }
.root { font: 16px/1.5 system-ui, -apple-system, "Segoe UI", "Noto Sans", "Noto Sans CJK JP", "Noto Sans CJK SC", sans-serif; color: #1b1b1b; }
.visually-hidden { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
button, select, textarea, input { font: inherit; color: inherit; }
button { cursor: pointer; }
:focus-visible { outline: 3px solid #0a3a66; outline-offset: 2px; }
.launcher { position: fixed; right: 16px; bottom: 16px; z-index: 2147483000; width: 60px; height: 60px; border-radius: 50%; border: 0; background: #0a3a66; color: #fff; box-shadow: 0 4px 14px rgba(0,0,0,.3); display: grid; place-items: center; }
.launcher svg { width: 30px; height: 30px; fill: currentColor; }
.launcher:focus-visible { outline: 3px solid #fff; box-shadow: 0 0 0 6px #0a3a66; outline-offset: 0; }
.panel { position: fixed; right: 16px; bottom: 88px; z-index: 2147483000; width: min(420px, calc(100vw - 32px)); height: min(640px, calc(100vh - 112px)); display: flex; flex-direction: column; background: #fff; border: 1px solid #767676; border-radius: 12px; box-shadow: 0 8px 28px rgba(0,0,0,.25); overflow: hidden; }
.panel[hidden] { display: none; }
header { display: flex; flex-wrap: wrap; align-items: center; gap: 4px 8px; padding: 8px 8px 8px 16px; background: #0a3a66; color: #fff; }
header h2 { flex: 1 1 8em; margin: 0; font-size: 1.05rem; line-height: 1.3; }
.tools { display: flex; align-items: center; gap: 6px; flex-wrap: wrap; }
header :focus-visible { outline-color: #fff; }
header select { min-height: 36px; border: 1px solid #fff; border-radius: 6px; background: #0a3a66; color: #fff; padding: 0 4px; }
header button { min-height: 36px; min-width: 36px; display: inline-flex; align-items: center; gap: 4px; border: 1px solid #fff; border-radius: 6px; background: transparent; color: #fff; padding: 0 8px; }
header svg { width: 20px; height: 20px; stroke: currentColor; stroke-width: 2.2; fill: none; }
.conversation { position: relative; flex: 1; overflow-y: auto; padding: 12px 16px; overscroll-behavior: contain; }
.conversation:focus-visible { outline-offset: -3px; }
.intro ul { list-style: none; margin: 0; padding: 0; display: grid; gap: 8px; }
.example { width: 100%; min-height: 44px; text-align: start; padding: 8px 12px; border: 1px solid #0a3a66; border-radius: 8px; background: #f4f7fb; color: #0a3a66; }
.message { margin: 12px 0; }
.question p { margin: 0 0 0 auto; max-width: 85%; width: fit-content; padding: 8px 12px; border-radius: 12px 12px 2px 12px; background: #e3ebf4; white-space: pre-line; overflow-wrap: anywhere; }
.answer-text, .error, .kept, .thinking { margin: 0 0 8px; white-space: pre-line; overflow-wrap: anywhere; }
.thinking { color: #4a4a4a; font-style: italic; }
.streaming::after { content: " ▌"; color: #4a4a4a; }
.error { color: #8b0000; font-weight: 600; }
a { color: #0a4f8f; text-decoration: underline; }
.cite { display: inline-block; min-width: 24px; min-height: 24px; text-align: center; font-weight: 600; }
.sources-title { font-size: .95rem; margin: 12px 0 4px; }
.sources { margin: 0; padding-inline-start: 0; list-style: none; display: grid; gap: 4px; }
summary { min-height: 32px; padding: 4px 8px; border: 1px solid #c4c4c4; border-radius: 6px; cursor: pointer; overflow-wrap: anywhere; }
.site { color: #4a4a4a; }
details[open] summary { margin-bottom: 6px; }
details > p, .passage { margin: 4px 8px; }
.section { margin: 4px 0; font-size: .9rem; color: #4a4a4a; }
blockquote { margin: 0 0 8px; padding-inline-start: 10px; border-inline-start: 3px solid #c4c4c4; white-space: pre-line; overflow-wrap: anywhere; font-size: .95rem; }
.feedback { margin-top: 8px; font-size: .95rem; }
.feedback p { margin: 4px 0; }
.verdicts, .comment-row { display: flex; gap: 8px; flex-wrap: wrap; }
.feedback button { min-height: 36px; display: inline-flex; align-items: center; gap: 6px; padding: 4px 12px; border: 1px solid #0a3a66; border-radius: 6px; background: #fff; color: #0a3a66; }
.feedback svg { width: 18px; height: 18px; fill: currentColor; }
.again { min-height: 36px; display: inline-flex; align-items: center; gap: 6px; padding: 4px 12px; border: 1px solid #0a3a66; border-radius: 6px; background: #fff; color: #0a3a66; }
.again svg { width: 18px; height: 18px; stroke: currentColor; stroke-width: 2.2; fill: none; }
.comment label { display: block; margin-bottom: 4px; }
.comment input { flex: 1 1 12em; min-height: 36px; padding: 4px 8px; border: 1px solid #767676; border-radius: 6px; }
form:not(.comment) { display: flex; gap: 8px; align-items: flex-end; padding: 8px 12px 12px; border-top: 1px solid #c4c4c4; }
textarea { flex: 1; resize: none; min-height: 44px; max-height: 30vh; padding: 8px 10px; border: 1px solid #767676; border-radius: 8px; }
textarea::placeholder { color: #5f5f5f; }
.send { width: 44px; height: 44px; border: 0; border-radius: 8px; background: #0a3a66; color: #fff; display: grid; place-items: center; }
.send svg { width: 22px; height: 22px; fill: currentColor; }
.send:disabled { background: #5f6f80; cursor: progress; }
@media (max-width: 520px), (max-height: 520px) {
  .panel { inset: 0; width: 100%; height: 100%; border-radius: 0; border: 0; }
  .panel:not([hidden]) ~ .launcher { display: none; } /* the panel fills the screen; its close button closes it */
}
@media (prefers-reduced-motion: no-preference) {
  .panel:not([hidden]) { animation: vw-open .16s ease-out; }
  @keyframes vw-open { from { opacity: 0; transform: translateY(8px); } }
}
@media (forced-colors: active) { .launcher, .send, header { border: 1px solid CanvasText; } }
`;

  function start() {
    const base = webUrl(script.dataset.api);
    if (!base) {
      console.error("visitor-widget.js: set data-api to the assistant's http(s) address, e.g. data-api=\"https://assistant.example.org\".");
      return;
    }
    const language = supportedLanguage(script.dataset.lang, navigator.language);
    const widget = new VisitorWidget(new AgentApi(base), language);
    document.body.append(widget.host);
    window.versaillesVisitorWidget = widget;
  }

  window.versaillesVisitorWidget = true; // claimed now: a second tag loading meanwhile stays inert
  if (document.body) start();
  else document.addEventListener("DOMContentLoaded", start, { once: true });
})();
