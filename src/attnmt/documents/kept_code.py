"""What a page's text keeps whole, beside URLs, e-mail addresses, file names and names joined by "&"
(attnmt.decoding.protected.PROSE_PROTECTED): a template's tags and a server page's code, which the server or the
framework fills in or runs.
FlatBuilder(protected=KEPT_IN_TEXT) makes each an atom (attnmt.documents.elements, markup), and the page
writer writes a code back as it came (attnmt.documents.page_writer)."""

from __future__ import annotations

import re

from attnmt.decoding.protected import PROSE_PROTECTED

# A template's tags in a page's text or an attribute: Jinja's, Liquid's, Django's, Angular's, Vue's and Handlebars'
# ``{{ customer.name }}``, ``{{{ raw }}}``, ``{% if cart %}``, which the server or the framework fills in: given to the
# model, they came back reordered and translated ("{{ KUNDE.NAME }}").  Each is kept whole, as a URL is.  One holds
# no brace and no line break, so each try ends at the next brace (a line of "{{" repeated is read once).
TEMPLATE_TAG = re.compile(r"\{\{\{[^{}\n]*\}\}\}|\{\{[^{}\n]*\}\}|\{%[^{}\n]*?%\}")
# ERB's, JSP's and ASP's code in a page's text (``<%= user.name %>``, ``<% if x %>``), which the server runs and
# libxml2 reads as text: kept whole, as a template's tags are.  It holds no "<" but a comparison's (``a < b``,
# ``a <= b``): each try ends at the next tag or code, so a text of "<%" a thousand times over is read once.
TEXT_CODE = re.compile(r"<%(?:[^<]|<[\s=])*?%>")
# A WordPress shortcode with attributes (``[gallery ids="1,2"]``, ``[caption id="1" align="left"]``) or a closing one
# (``[/caption]``), which WordPress runs: given to the model, it came back ``[CAPTION ID="1"]``.  Kept whole; a word in
# brackets alone (``[Note]``, ``[sic]``) is text.  No "[", "]" or line break inside, so each try ends at the next.
SHORTCODE_VALUE = r"(?:\"[^\"\[\]\n]*\"|'[^'\[\]\n]*'|[^\s\[\]\"']+)"  # an attribute's, quoted or not
SHORTCODE = re.compile(rf"\[/[A-Za-z][\w-]*\]|\[[A-Za-z][\w-]*(?:\s+[\w-]+={SHORTCODE_VALUE})+\s*/?\]")
# what HTML's and XML's text keep whole
KEPT_IN_TEXT = re.compile(f"{TEMPLATE_TAG.pattern}|{TEXT_CODE.pattern}|{SHORTCODE.pattern}|{PROSE_PROTECTED.pattern}")
