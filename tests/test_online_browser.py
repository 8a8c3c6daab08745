"""An online game in Debian's Chromium (Playwright): two browser contexts (two people, each
with their own storage) play a whole game through the invite link while a third context
watches; every page shows every move, and the finished game's page shows the library's
review. Also the pizza for four (``players:4``) with four contexts.

Screenshots go to ``$COINROW_SCREENSHOTS`` when set, else to a temporary directory.
"""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

import pytest
from conftest import CHROMIUM, check_views_with_axe, wait_js, watch_csp

from coinrow.analysis import analyze
from coinrow.rules import join_moves

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists() and not os.environ.get("CI"),
    reason=f"Chromium is not installed at {CHROMIUM} (`make test` installs it; CI runs these)",
)


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("COINROW_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def shoot(page: Any, folder: Path, name: str) -> None:
    """``name-WIDTH-THEME.png`` of the whole page in both themes (the docs' pictures), taken
    only when ``$COINROW_SCREENSHOTS`` says where to keep them."""
    if not os.environ.get("COINROW_SCREENSHOTS"):
        return  # nobody would look at them
    width = page.viewport_size["width"]
    own = page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
    themes = ["dark", "light"] if own else ["light", "dark"]
    for theme in themes:
        page.emulate_media(color_scheme=theme)
        page.screenshot(path=folder / f"{name}-{width}-{theme}.png", full_page=True)
    page.emulate_media(color_scheme=themes[0])


class People:
    """Browser contexts, one per person, failing the test on any page error or any
    Content-Security-Policy refusal."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.contexts: list[Any] = []
        self.errors: list[str] = []
        self.refused: list[str] = []

    def page(self, width: int = 800, *, dark: bool = False) -> Any:
        context = self.browser.new_context(
            viewport={"width": width, "height": 900}, color_scheme="dark" if dark else "light"
        )
        self.contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        watch_csp(page, self.refused)
        return page

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def people(browser: Any) -> Any:
    crowd = People(browser)
    yield crowd
    crowd.close()
    assert crowd.errors == []
    assert crowd.refused == []


def invite(page: Any, live_url: str, body: dict[str, Any]) -> str:
    """What Play's "Invite a friend" does: one POST, the creator's token kept in the
    browser, the invite link (which holds no token) opened. Returns the link."""
    page.goto(live_url + "static/style.css")  # any page of the site: its storage and origin
    created = page.evaluate(
        """async (body) => {
          const response = await fetch("/api/online/games", {
            method: "POST", headers: {"content-type": "application/json"},
            body: JSON.stringify(body)});
          const data = await response.json();
          localStorage.setItem(`coinrow-online:${data.game}`, data.token);
          return data;
        }""",
        body,
    )
    assert created["token"] not in created["invite"]
    link = live_url.rstrip("/") + created["invite"]
    page.goto(link)
    return link


def invite_from_play(page: Any, live_url: str, coins: list[int]) -> str:
    """Play's "Invite a friend" button, as a person uses it: the game opens at its own
    address, which holds no token, and this browser keeps its seat's token."""
    page.goto(live_url + "#play?coins=" + "%20".join(map(str, coins)) + "&opponent=friend")
    wait_js(page, "document.querySelector('#view-play').dataset.state === 'your-turn'")
    page.click("#play-invite")
    page.wait_for_url("**/game/*")
    game = page.url.rstrip("/").rsplit("/", 1)[1]
    token = page.evaluate(f"localStorage.getItem('coinrow-online:{game}')")
    assert token and token not in page.url
    return str(page.url)


def read_qr(page: Any) -> list[str]:
    """The texts of the QR codes a camera reads on the invite's image, as drawn by the
    browser (zxing-cpp, a reader written apart from the server's encoder)."""
    import zxingcpp
    from PIL import Image

    wait_js(page, "document.getElementById('invite-qr').complete")
    wait_js(page, "document.getElementById('invite-qr').naturalWidth > 0")
    picture = Image.open(io.BytesIO(page.locator("#invite-qr").screenshot()))
    return [found.text for found in zxingcpp.read_barcodes(picture)]


def wait_moves(pages: list[Any], line: str) -> None:
    for page in pages:
        wait_js(page, f"document.body.dataset.moves === {line!r}")


def play_through(
    pages: list[Any], watchers: list[Any], moves: list[str], players: int, start: int = 0
) -> None:
    """Each seat in turn clicks its move (from move ``start`` on); every page, watchers
    included, shows each move."""
    line: list[str] = moves[:start]
    for number, move in enumerate(moves[start:], start):
        page = pages[number % players]
        wait_js(page, f"document.querySelector('button.move[data-move=\"{move}\"]') !== null")
        page.click(f'button.move[data-move="{move}"]')
        line.append(move)
        wait_moves(pages + watchers, join_moves(line))


def check_review(page: Any, coins: list[int], moves: list[str], rules: str) -> None:
    wait_js(page, "!document.getElementById('review').hidden")
    expected = analyze(coins, moves, rules=rules).to_dict()
    labels = page.eval_on_selector_all(
        "#review-table tbody tr", "rows => rows.map(r => r.cells[5].textContent)"
    )
    assert labels == [move["label"] for move in expected["moves"]]
    accuracy = page.text_content("#accuracy")
    for player in expected["summary"].values():
        assert f"{player['player']}: accuracy {player['accuracy']:.1f}%" in accuracy


def test_two_people_play_through_the_link_and_a_spectator_watches(
    people: People, live_url: str, shots: Path
) -> None:
    coins, moves = [3, 9, 1, 2], ["R", "L", "L", "R"]
    host = people.page()
    link = invite_from_play(host, live_url, coins)
    wait_js(host, "document.body.dataset.status === 'waiting'")
    token = host.evaluate(f"localStorage.getItem('coinrow-online:{link.rsplit('/', 1)[1]}')")
    assert read_qr(host) == [link]  # the camera opens the game's public address
    assert token not in host.get_attribute("#invite-qr", "src")
    shoot(host, shots, "online-invite")
    friend = people.page(width=360, dark=True)  # a phone, in its dark theme
    friend.goto(link)  # opening the link takes the free seat
    watcher = people.page()
    for page in (host, friend):
        wait_js(page, "document.body.dataset.status === 'playing'")
    watcher.goto(link)  # the seats are full: this one watches
    wait_js(watcher, "document.getElementById('connection').textContent === 'Watching.'")
    play_through([host, friend], [watcher], moves[:2], 2)
    shoot(friend, shots, "online-live")
    play_through([host, friend], [watcher], moves, 2, start=2)
    for page in (host, friend, watcher):
        wait_js(page, "document.body.dataset.status === 'over'")
        check_review(page, coins, moves, "plain")
    assert watcher.locator("button.move").count() == 0
    archive = people.page()
    archive.goto(link)  # later: the permanent address shows the finished game and its review
    check_review(archive, coins, moves, "plain")
    shoot(archive, shots, "online-archive")


def test_four_friends_share_a_pizza(people: People, live_url: str, shots: Path) -> None:
    coins = [5, 1, 4, 7, 2]
    moves = ["L", "R", "R", "L", "L"]
    first = people.page()
    link = invite(first, live_url, {"coins": coins, "rules": "players:4"})
    friends = []
    for _ in range(3):
        page = people.page()
        page.goto(link)
        friends.append(page)
    watcher = people.page()
    for page in [first, *friends]:
        wait_js(page, "document.body.dataset.status === 'playing'")
    watcher.goto(link)
    play_through([first, *friends], [watcher], moves, 4)
    for page in [first, *friends, watcher]:
        wait_js(page, "document.body.dataset.status === 'over'")
    check_review(watcher, coins, moves, "players:4")
    shoot(watcher, shots, "online-four")


@pytest.fixture(scope="module")
def two_games(browser: Any, live_url: str) -> dict[str, tuple[str, str]]:
    """The game page's two states for axe: a game waiting for a friend (its invite, link and
    QR code showing) and a finished game against the computer (its archive: the review)."""
    context = browser.new_context(viewport={"width": 800, "height": 900})
    try:
        page = context.new_page()
        page.set_default_timeout(10_000)
        waiting = invite(page, live_url, {"coins": [8, 15, 3, 7]})
        wait_js(page, "document.body.dataset.status === 'waiting'")
        finished = invite(page, live_url, {"coins": [8, 15, 3, 7], "seats": [None, "greedy"]})
        for line in (["R", "L"], ["R", "L", "R", "L"]):  # greedy answers each: 8, then 15
            page.click('button.move[data-move="R"]')
            wait_js(page, f"document.body.dataset.moves === {join_moves(line)!r}")
        wait_js(page, "document.body.dataset.status === 'over'")
    finally:
        context.close()
    site = live_url.rstrip("/") + "/"
    return {
        "online-waiting": (waiting.removeprefix(site), "#invite-qr"),
        "online-archive": (finished.removeprefix(site), "#review:not([hidden])"),
    }


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("width", [360, 1280])
def test_the_game_page_passes_axe(
    browser: Any,
    live_url: str,
    two_games: dict[str, tuple[str, str]],
    theme: str,
    width: int,
    tmp_path: Path,
) -> None:
    """axe-core on the game page, waiting and archived, with no moderate finding either."""
    check_views_with_axe(
        browser,
        live_url,
        two_games,
        theme=theme,
        width=width,
        folder=tmp_path,
        strict=tuple(two_games),
    )
