"""The translation server's web page: a text box, a Translate button, the output and its attention.

One page, no network beyond its own server: the style and script are inline and
the attention view is the standalone viewer's own (``attnmt.inspect.viewer``'s STYLE,
MARKUP and SCRIPT), fed by ``POST translate`` with ``return_attention``.
"""

from __future__ import annotations

import html
import re

from attnmt.inspect.viewer import MARKUP, SCRIPT, STYLE

PAGE = (
    """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>attnmt: __MODEL__</title>
<style>
  body { font: 14px system-ui, sans-serif; margin: 1.5em; color: #222; background: #fff; max-width: 60em; }
  h1 { font-size: 1.1em; font-weight: 600; margin: 0 0 .8em; }
  textarea { font: inherit; width: 100%; box-sizing: border-box; padding: .4em; }
  .actions { margin: .5em 0 1em; }
  .actions label { margin-left: 1.2em; }
  button { font: inherit; padding: .3em 1.2em; }
  #translation { font-size: 1.15em; min-height: 1.4em; margin: 0 0 1em; }
  #error { color: #b00020; }
"""
    + STYLE
    + """</style>
</head>
<body>
<h1>attnmt · __MODEL__</h1>
<textarea id="source" rows="3" placeholder="A sentence to translate" autofocus></textarea>
<div class="actions">
  <button id="translate" type="button">Translate</button>
  <label>Beam <select id="beam"><option>1</option><option>2</option><option selected>4</option>
    <option>8</option></select></label>
  <span id="status"></span>
</div>
<p id="translation"></p>
<p id="error" role="alert"></p>
<section id="attention" hidden>
"""
    + MARKUP
    + """</section>
<script>
"""
    + SCRIPT
    + """
// The page: ask the server for the translation and its attention, then show both.
const button = byId("translate");

async function translateSource() {
  const text = byId("source").value;
  button.disabled = true;
  byId("status").textContent = "translating…";
  byId("error").textContent = "";
  try {
    const response = await fetch("translate", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ text, beam: Number(byId("beam").value), return_attention: true }),
    });
    const answer = await response.json();
    if (!response.ok) throw new Error(answer.detail || response.statusText);
    byId("translation").textContent = answer.translations[0];
    byId("attention").hidden = false;
    showAttention(answer.attention[0]);
    document.body.dataset.state = "done";
  } catch (error) {
    byId("error").textContent = error.message;
    document.body.dataset.state = "error";
  } finally {
    button.disabled = false;
    byId("status").textContent = "";
  }
}

button.addEventListener("click", translateSource);
byId("source").addEventListener("keydown", event => {
  if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) translateSource();
});
</script>
</body>
</html>
"""
)


def page_html(model_name: str) -> str:
    """The page, titled with the model's name."""
    return re.sub("__MODEL__", lambda _: html.escape(model_name), PAGE)
