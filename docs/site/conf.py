"""Sphinx configuration of the course's website (tools/site.py builds it: `make site`).

The pages are the complete notebooks with their stored outputs (nothing is executed), plus
the few pages in this folder. Everything a page needs is in the built site: the theme's
fonts and scripts, the search index and MathJax (copied from the sphinx-mathjax-offline
package), so that an opened page makes no request to another host.
"""
import os

project = "minigrad: what loss.backward() really does"
author = "the minigrad authors"
copyright = "the minigrad authors"  # noqa: A001 (Sphinx's name)

extensions = ["myst_nb"]
exclude_patterns = ["student/**", "_build", "**.ipynb_checkpoints"]
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence", "html_admonition"]
myst_heading_anchors = 3

nb_execution_mode = "off"           # the stored outputs, as the course's tests keep them
nb_ipywidgets_js = {}               # no widget scripts from a CDN (the course has no widgets)
nb_code_prompt_show = "Show the solution"
nb_code_prompt_hide = "Hide the solution"
nb_merge_streams = True

html_theme = "sphinx_book_theme"
html_title = "minigrad · the course"
html_static_path = ["_static"]
html_css_files = ["course.css"]
html_last_updated_fmt = None
html_show_sourcelink = False
html_copy_source = False
html_theme_options = {
    "show_toc_level": 1,
    "use_download_button": False,
    "use_fullscreen_button": False,
    "home_page_in_toc": True,
    "navigation_with_keys": False,
    "article_header_end": [],
}
repository = os.environ.get("MINIGRAD_SITE_REPOSITORY")  # owner/name, set by the Pages workflow
if repository:
    html_theme_options.update(repository_url=f"https://github.com/{repository}",
                              use_repository_button=True)

# MathJax from the site itself: tools/site.py copies it to _static/mathjax/.
mathjax_path = "mathjax/tex-chtml.js"
html_context = {"default_mode": "light"}  # the theme's light/dark switch starts from light
