from linkcheck import broken_links, scan


def test_every_relative_link_and_anchor_resolves(site):
    assert broken_links(site) == []


def test_every_link_resolves_in_a_multi_process_site(markup_site):
    assert broken_links(markup_site) == []


def test_link_checker_reports_a_missing_anchor_and_file(tmp_path):
    (tmp_path / "a.html").write_text(
        '<a id="x" href="#x"></a><a href="#y"></a><a href="b.html"></a>'
    )
    assert broken_links(tmp_path) == ["a.html: missing anchor #y", "a.html: missing file b.html"]


def test_no_page_refers_to_the_network(site):
    for page in site.glob("*.html"):
        for link in scan(page).links:
            assert "//" not in link, f"{page.name} links to {link}"


def test_site_is_ready_for_github_pages(site):
    assert (site / ".nojekyll").is_file()
    assert (site / "index.html").is_file()


def test_graph_stages_link_back_to_the_source_line(site):
    page = (site / "graph-g1.html").read_text()
    assert '# File: <a href="fn-f0.html#L11">/home/user/project/model.py:11</a>' in page
    resume_graph = (site / "graph-g2.html").read_text()
    assert (
        '<a href="fn-f0.html#L14">' in resume_graph
    )  # a resume function's lines are its user function's
