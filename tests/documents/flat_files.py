"""Flat OpenDocument files (.fodt, .fodp, .fods) as LibreOffice writes them, and the same content as
the zipped file (.odt, .odp, .ods), made from one set of pieces: styles, automatic styles, master
pages and body."""

from office_files import write_members

NAMESPACES = {
    "office": "urn:oasis:names:tc:opendocument:xmlns:office:1.0",
    "style": "urn:oasis:names:tc:opendocument:xmlns:style:1.0",
    "text": "urn:oasis:names:tc:opendocument:xmlns:text:1.0",
    "table": "urn:oasis:names:tc:opendocument:xmlns:table:1.0",
    "draw": "urn:oasis:names:tc:opendocument:xmlns:drawing:1.0",
    "fo": "urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0",
    "svg": "urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0",
    "chart": "urn:oasis:names:tc:opendocument:xmlns:chart:1.0",
    "dc": "http://purl.org/dc/elements/1.1/",
    "xlink": "http://www.w3.org/1999/xlink",
    "presentation": "urn:oasis:names:tc:opendocument:xmlns:presentation:1.0",
    "ooo": "http://openoffice.org/2004/office",
    "script": "urn:oasis:names:tc:opendocument:xmlns:script:1.0",
    "form": "urn:oasis:names:tc:opendocument:xmlns:form:1.0",
}
MANIFEST = "urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"
DECLARED = " ".join(f'xmlns:{prefix}="{uri}"' for prefix, uri in NAMESPACES.items())
MEDIA = {"text": "application/vnd.oasis.opendocument.text",
         "presentation": "application/vnd.oasis.opendocument.presentation",
         "spreadsheet": "application/vnd.oasis.opendocument.spreadsheet"}

STYLES = ('<office:styles><style:style style:name="Standard" style:family="paragraph">'
          '<style:text-properties fo:language="en" fo:country="US"/></style:style>'
          '<style:style style:name="Source_20_Text" style:display-name="Source Text" style:family="text">'
          '<style:text-properties style:font-name="Liberation Mono"/></style:style></office:styles>')
AUTOMATIC = ('<office:automatic-styles><style:style style:name="T1" style:family="text">'
             '<style:text-properties fo:font-weight="bold"/></style:style>'
             '<style:page-layout style:name="pm1"/></office:automatic-styles>')
MASTERS = ('<office:master-styles><style:master-page style:name="Standard" style:page-layout-name="pm1">'
           '<style:header><text:p>The header text.</text:p></style:header>'
           '<style:footer><text:p>The footer text.</text:p></style:footer></style:master-page></office:master-styles>')
# A heading, a bold span, code in "Source Text", a footnote, an annotation, a table's string and number cells.
TEXT_BODY = ('<office:text><text:h text:outline-level="1">The title here.</text:h>'
             '<text:p text:style-name="Standard">A dog runs on the <text:span text:style-name="T1">green</text:span> '
             'grass.<text:note text:id="n1" text:note-class="footnote"><text:note-citation>1</text:note-citation>'
             '<text:note-body><text:p>The note says more.</text:p></text:note-body></text:note></text:p>'
             '<text:p>Run <text:span text:style-name="Source_20_Text">ls -l /tmp</text:span> to see the files.</text:p>'
             '<text:p>The cat sleeps.<office:annotation><dc:creator>Ann</dc:creator>'
             '<text:p>Check this sentence.</text:p></office:annotation></text:p>'
             '<table:table table:name="T"><table:table-column table:number-columns-repeated="2"/><table:table-row>'
             '<table:table-cell office:value-type="string"><text:p>A cat sleeps.</text:p></table:table-cell>'
             '<table:table-cell office:value-type="float" office:value="7"><text:p>7</text:p></table:table-cell>'
             '</table:table-row></table:table></office:text>')
# A chart's title and its table's label (translated), and its table's number (its data, kept).
CHART = ('<office:chart><chart:chart><chart:title><text:p>The number of dogs.</text:p></chart:title>'
         '<table:table table:name="local-table"><table:table-rows><table:table-row>'
         '<table:table-cell office:value-type="string"><text:p>Dogs seen</text:p></table:table-cell>'
         '<table:table-cell office:value-type="float" office:value="3"><text:p>3</text:p></table:table-cell>'
         '</table:table-row></table:table-rows></table:table></chart:chart></office:chart>')

META = '<office:meta><dc:date>2024-05-01T10:00:00</dc:date></office:meta>'  # a flat file's properties


def flat_file(kind: str = "text", body: str = TEXT_BODY, styles: str = STYLES, automatic: str = AUTOMATIC,
              masters: str = MASTERS, before: str = "", media: str | None = None, meta: str = META) -> bytes:
    """A flat OpenDocument file of ``kind`` (text, presentation, spreadsheet): ``before`` goes
    before the styles (``office:scripts``), ``media`` replaces the kind's mimetype.  Its properties hold
    a date, no title: the zipped file has no meta.xml, and a title is translated (``meta``)."""
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<office:document {DECLARED} office:version="1.3" office:mimetype="{media or MEDIA[kind]}">'
            f'{meta}{before}{styles}{automatic}{masters}'
            f'<office:body>{body}</office:body></office:document>\n').encode()


def zipped_file(kind: str = "text", body: str = TEXT_BODY, styles: str = STYLES, automatic: str = AUTOMATIC,
                masters: str = MASTERS) -> bytes:
    """The same content as ``flat_file``'s, zipped as content.xml and styles.xml."""
    head = '<?xml version="1.0" encoding="UTF-8"?>\n'
    return write_members({
        "mimetype": MEDIA[kind].encode(),
        "content.xml": (f'{head}<office:document-content {DECLARED} office:version="1.3">{automatic}'
                        f'<office:body>{body}</office:body></office:document-content>').encode(),
        "styles.xml": (f'{head}<office:document-styles {DECLARED} office:version="1.3">{styles}{masters}'
                       '</office:document-styles>').encode(),
        "META-INF/manifest.xml": manifest(MEDIA[kind]),
    })


def manifest(media: str) -> bytes:
    """META-INF/manifest.xml of a file of ``media`` with content.xml and styles.xml (LibreOffice
    opens no file without one)."""
    entries = (("/", media), ("content.xml", "text/xml"), ("styles.xml", "text/xml"))
    listed = "".join(f'<manifest:file-entry manifest:full-path="{path}" manifest:media-type="{kind}"/>'
                     for path, kind in entries)
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<manifest:manifest xmlns:manifest="{MANIFEST}" '
            f'manifest:version="1.3">{listed}</manifest:manifest>').encode()


def chart_frame(inside: str = CHART) -> str:
    """A frame holding a chart (``inside``: its ``office:chart``), as a flat file keeps it."""
    chart = f'<office:document office:mimetype="application/vnd.oasis.opendocument.chart">' \
            f'<office:body>{inside}</office:body></office:document>'
    return ('<draw:frame draw:name="Object1" svg:width="8cm" svg:height="6cm">'
            f'<draw:object>{chart}</draw:object></draw:frame>')


def charted_body(inside: str = CHART) -> str:
    """A text's body: a paragraph, then a frame holding a chart (``inside``: its ``office:chart``)."""
    return f'<office:text><text:p>A chart follows.{chart_frame(inside)}</text:p></office:text>'
