"""A bare Kivy window with the app's font (the ``ui`` benchmark's yardstick): configured as the
app is, one label drawn in the CJK font; prints one JSON line — the first frame after the
process started and the RSS when it stops.

``python -m table_app.bench.ui_bare --size 800x480 --exit-after 4``
"""

from __future__ import annotations

import argparse
import json
import sys
import time


def main(argv: list[str] | None = None) -> int:
    from table_app.ui.launch import launched_at  # (nothing of the engine: the yardstick is Kivy and the font)

    started = launched_at()
    p = argparse.ArgumentParser()
    p.add_argument("--size", type=lambda t: tuple(int(x) for x in t.split("x")), default=(800, 480))
    p.add_argument("--exit-after", type=float, default=4.0)
    p.add_argument("--app-sizes", action="store_true",
                   help="a label at each of the app's four font sizes for this window (units.type_scale), not one "
                        "at 40 px: each size is another face of the CJK font opened (about 2.5 MB each)")
    args = p.parse_args(argv)
    from table_app.ui.launch import configure_kivy, rss_mb

    width, height = args.size
    configure_kivy(width, height, False)
    from kivy.app import App
    from kivy.clock import Clock
    from kivy.core.text import DEFAULT_FONT, LabelBase
    from kivy.core.window import Window
    from kivy.uix.label import Label

    from table_app.present.fonts import find_cjk_font

    font = find_cjk_font()
    first: list[float] = []

    class Bare(App):  # type: ignore[misc]  # Kivy is untyped
        def build(self) -> Label:  # (or a BoxLayout of them)
            if font:
                LabelBase.register(DEFAULT_FONT, font)
            Window.bind(on_flip=self.flipped)
            Clock.schedule_once(lambda *_: self.stop(), args.exit_after)
            if not args.app_sizes:
                return Label(text="西安麻将 xian-table", font_size=40)
            from kivy.uix.boxlayout import BoxLayout

            from table_app.ui import units

            box = BoxLayout(orientation="vertical")
            for size in units.type_scale(units.px_per_mm(width, height)):
                box.add_widget(Label(text="西安麻将 xian-table", font_size=size))
            return box

        def flipped(self, *_: object) -> None:
            if not first:
                first.append(time.monotonic() - started)

    Bare().run()
    print(json.dumps({"first_frame_s": first[0] if first else None, "rss_mb": rss_mb(), "font": font}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
