"""Each thread keeps one font configuration across renders (reports.document._font_config):
fontconfig's font list, Pango's fonts and WeasyPrint's line-height cache are built once, not
once per proposal, and the PDF is the same as with a configuration of its own."""

import threading

from weasyprint.text.fonts import FontConfiguration

from reports.document import PDF_OPTIONS, _ProposalHTML, lay_out
from reports.fetcher import BASE_URL, ProposalURLFetcher

HTML = (
    '<html lang="en"><head><title>T</title>'
    '<link rel="stylesheet" href="/static/reports/proposal.css"></head>'
    "<body><h2>Cost</h2><p>Eight <strong>servers</strong>.</p>"
    "<table><tr><th>GPUs</th><td>64</td></tr></table></body></html>"
)


def test_renders_in_one_thread_share_one_font_configuration():
    assert lay_out(HTML).font_config is lay_out(HTML).font_config


def test_another_thread_has_its_own_font_configuration():
    here = lay_out(HTML).font_config
    there = []
    thread = threading.Thread(target=lambda: there.append(lay_out(HTML).font_config))
    thread.start()
    thread.join()
    assert there[0] is not here
    assert isinstance(there[0], FontConfiguration)


def test_a_kept_configuration_writes_the_same_pdf_as_a_new_one():
    lay_out("<p>Other <em>fonts</em> and sizes first</p>").write_pdf(**PDF_OPTIONS)
    kept = lay_out(HTML).write_pdf(**PDF_OPTIONS)
    fresh = (
        _ProposalHTML(string=HTML, base_url=BASE_URL, url_fetcher=ProposalURLFetcher())
        .render(font_config=FontConfiguration())
        .write_pdf(**PDF_OPTIONS)
    )
    assert kept == fresh
