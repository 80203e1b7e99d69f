"""The touchscreen table app (Kivy). Kivy is imported only in this package.

``table_app.ui.launch.main`` configures Kivy and runs :class:`table_app.ui.app.TableApp`;
the pure parts (texts, fonts, the view of the public state, the wall model, the simulated
buttons) import no Kivy and are tested without a display.
"""
