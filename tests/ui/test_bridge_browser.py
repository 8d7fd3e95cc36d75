"""The companion in the page, in a real browser: headless Chromium (Debian's chromium and
chromium-driver, driven by Selenium through the system chromedriver) opens countlo's test game
page (tests/ui/gamepage), runs the userscript `countlo userscript` writes (injected before the
page's own scripts, as a script manager does at document-start), and plays against
`countlo play --listen` in a separate process, with no count typed anywhere.

Without chromium, chromedriver or selenium these tests are skipped, except where
COUNTLO_REQUIRE_BROWSER is set (.ci/run sets it): there a missing browser fails, so CI never
skips them silently.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from gamepage import SHAPE, GameServer
from tcpproxy import Relay

from countlo.formats.transcript import load
from countlo.play.oracle import SimulatedOracle
from countlo.ui.userscript import userscript

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOT = ROOT / "docs" / "companion-in-the-page.png"
FAST = 30  # ms the test page waits before showing a count (the real page: about 600)


def _need_browser() -> tuple[str, str]:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    try:
        import selenium  # noqa: F401
        have_selenium = True
    except ImportError:
        have_selenium = False
    if chromium and driver and have_selenium:
        return chromium, driver
    missing = ", ".join(n for n, ok in (("chromium", chromium), ("chromium-driver", driver),
                                        ("selenium (pip install -e '.[browser]')", have_selenium)) if not ok)
    if os.environ.get("COUNTLO_REQUIRE_BROWSER"):
        pytest.fail(f"COUNTLO_REQUIRE_BROWSER is set but this is missing: {missing}")
    pytest.skip(f"no headless browser here: {missing} missing")


@pytest.fixture(scope="module")
def browser():
    chromium, driver_path = _need_browser()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--window-size=1000,760", "--no-first-run", "--disable-extensions", "--lang=zh-CN"):
        options.add_argument(a)
    # the system chromedriver, named: Selenium Manager never looks for (or downloads) another
    driver = webdriver.Chrome(service=Service(executable_path=driver_path), options=options)
    driver.set_script_timeout(240)
    try:
        yield driver
    finally:
        driver.quit()


class Countlo:
    """`countlo play --listen 0 --plain` in its own process, its stdin kept open and never typed into."""

    def __init__(self, folder: Path, *options: str):
        self.transcript = folder / "game.txt"
        self.log = folder / "countlo.out"
        env = {**os.environ, "LANGUAGE": "en", "PYTHONUNBUFFERED": "1"}
        self.out = open(self.log, "w")  # noqa: SIM115 (closed in stop)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "countlo", "play", "--listen", "0", "--plain", "--transcript",
             str(self.transcript), *options],
            stdin=subprocess.PIPE, stdout=self.out, stderr=subprocess.STDOUT, env=env, cwd=folder)
        end = time.monotonic() + 30
        while not (m := re.search(r"127\.0\.0\.1:(\d+); pairing code: (\d+)", self.output())):
            assert self.proc.poll() is None and time.monotonic() < end, self.output()
            time.sleep(0.05)
        self.port, self.code = int(m.group(1)), m.group(2)

    def output(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")

    def game(self, n: int):
        """The transcript of the session's game n (1, 2, ...)."""
        path = self.transcript if n == 1 else self.transcript.with_name(f"game-{n}.txt")
        return load(str(path))

    def stop(self) -> None:
        """Ctrl-C, as a player leaves: the session must end cleanly (exit 0, no traceback)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(20)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
            self.out.close()
        assert self.proc.returncode == 0, self.output()
        assert "Traceback" not in self.output(), self.output()


@pytest.fixture
def page(browser, tmp_path):
    """Open the test game page with the userscript for a countlo started with `options`; yields
    a function (seeds, *options, relay=False, host="127.0.0.1", delay=FAST) -> (countlo, game)."""
    started: list = []

    def open_page(seeds, *options, relay=False, host="127.0.0.1", delay=FAST, approve=True, query="", before=""):
        game = GameServer(seeds)
        origin = f"http://127.0.0.1:{game.port}"
        countlo = Countlo(tmp_path, *(("--approve", origin) if approve else ()), *options)
        port = countlo.port
        proxy = None
        if relay:
            proxy = Relay(countlo.port)
            port = proxy.port
        script = browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                                         {"source": before + userscript(port)})["identifier"]
        started.append((countlo, game, proxy, script))
        browser.get(f"http://{host}:{game.port}/problem/CountLightsOut?delay={delay}{query}")
        countlo.proxy = proxy
        return countlo, game

    yield open_page
    for countlo, game, proxy, script in started:
        browser.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script})
        browser.get("about:blank")
        try:
            countlo.stop()
        finally:
            game.shutdown()
            if proxy is not None:
                proxy.close()


# Plays by clicking whatever the userscript marks until countlo says solved, game after game
# (each next game from the page's own "try again" button, which draws the next board); returns
# countlo's click count of each game. All in the page, so each click costs no WebDriver call.
PLAY = """
const games = arguments[0], done = arguments[arguments.length - 1];
const overlay = () => document.getElementById("countlo-overlay");
const clicks = () => overlay() ? overlay().getAttribute("data-countlo-clicks") : "";
const solved = () => overlay() && overlay().hasAttribute("data-countlo-solved");
async function until(test, what) {
  const end = Date.now() + 20000;
  while (!test()) {
    if (Date.now() > end) throw new Error("waited for " + what + "; overlay: " + (overlay() ? overlay().innerText : "none"));
    await new Promise(r => setTimeout(r, 10));
  }
}
(async () => {
  const out = [];
  for (let g = 0; g < games; g++) {
    if (g) document.getElementById("again").click();
    await until(() => clicks() !== "" && !solved() && document.querySelector("button.cell[data-countlo-next]"), "a game");
    while (!solved()) {
      const n = Number(clicks());
      document.querySelector("button.cell[data-countlo-next]").click();
      await until(() => Number(clicks()) > n || solved(), "click " + (n + 1));
    }
    out.push(Number(clicks()));
  }
  return out;
})().then(done, e => done("error: " + e.message));
"""


def play(browser, games: int = 1) -> list[int]:
    got = browser.execute_async_script(PLAY, games)
    assert not isinstance(got, str), got
    return got


def wait_for(browser, test, what: str, timeout: float = 20):
    end = time.monotonic() + timeout
    while not (value := browser.execute_script(test)):
        if time.monotonic() > end:
            overlay = browser.execute_script("return document.getElementById('countlo-overlay')?.outerHTML")
            pytest.fail(f"waited for {what}; the overlay: {overlay}")
        time.sleep(0.05)
    return value


def clicks(browser) -> str:
    return browser.execute_script(
        "const o = document.getElementById('countlo-overlay'); return o ? o.getAttribute('data-countlo-clicks') : null")


def status(browser) -> str:
    return browser.execute_script(
        "const o = document.getElementById('countlo-overlay'); return o ? o.getAttribute('data-countlo-status') : null")


def button(browser, cell: int):
    from selenium.webdriver.common.by import By

    return browser.find_elements(By.CSS_SELECTOR, "button.cell")[cell]


def marked(browser) -> int:
    return wait_for(browser, "const b = [...document.querySelectorAll('button.cell')]; "
                             "const i = b.findIndex(x => x.hasAttribute('data-countlo-next')); return i + 1;",
                    "a marked button") - 1


def started(browser) -> None:
    wait_for(browser, "const o = document.getElementById('countlo-overlay'); "
                      "return o && o.getAttribute('data-countlo-clicks') === '0'", "the game's start")


def reach(browser, n: int) -> None:
    wait_for(browser, f"const o = document.getElementById('countlo-overlay'); "
                      f"return o && Number(o.getAttribute('data-countlo-clicks')) >= {n}", f"{n} clicks")


def simulated_clicks(seed: int, folder: Path, monkeypatch, capsys) -> int:
    """Clicks `countlo play --sim --seed SEED` takes to clear the same board (same strategy)."""
    from countlo.cli.main import main

    path = folder / f"sim-{seed}.txt"
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n" * 400))
    assert main(["--lang", "en", "play", "--sim", "--seed", str(seed), "--plain", "--transcript", str(path)]) == 0
    capsys.readouterr()
    record = load(str(path)).record
    assert record is not None and record.count == 0
    return len(record.steps)


def solved_record(transcript):
    record = transcript.record
    assert record is not None and record.count == 0, transcript
    return record


# --- whole games ---------------------------------------------------------------------------

def test_twenty_seeded_games_to_zero_with_no_typed_count(browser, page, tmp_path, monkeypatch, capsys):
    seeds = list(range(1, 21))
    countlo, game = page(seeds)
    got = play(browser, games=len(seeds))
    assert game.game.inits == len(seeds)
    for k, seed in enumerate(seeds, 1):
        record = solved_record(countlo.game(k))
        assert len(record.steps) == got[k - 1]
        assert len(record.steps) == simulated_clicks(seed, tmp_path, monkeypatch, capsys), f"seed {seed}"
    assert "Solved" in countlo.output()


def test_the_overlay_and_the_names_on_the_page(browser, page, tmp_path):
    """The contract: every button named A1..F6, one marked; the overlay shows the next click;
    the screenshot of the page with the overlay (docs/companion-in-the-page.png)."""
    countlo, _game = page([7], delay=600)
    started(browser)
    names = browser.execute_script(
        "return [...document.querySelectorAll('button.cell')].map(b => b.getAttribute('data-countlo-cell'))")
    assert names == [f"{c}{r}" for r in range(1, 7) for c in "ABCDEF"]
    for _ in range(3):
        n = int(clicks(browser))
        button(browser, marked(browser)).click()
        reach(browser, n + 1)
    cell = marked(browser)
    text = browser.find_element("id", "countlo-overlay").text
    assert f"Next: {names[cell]}" in text and "boards left" in text and "clicks to go" in text, text
    assert browser.execute_script("return document.querySelectorAll('[data-countlo-next]').length") == 1
    time.sleep(0.7)  # the flashes of the last click are over: the picture shows the board as it rests
    shot = tmp_path / "page.png"
    assert browser.save_screenshot(str(shot))
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    if os.environ.get("COUNTLO_UPDATE_SCREENSHOT"):
        shutil.copy(shot, SCREENSHOT)
    assert play(browser) == [len(solved_record(countlo.game(1)).steps)]


# --- faults ----------------------------------------------------------------------------------

def test_a_misclick_is_taken_as_the_cell_really_clicked(browser, page):
    countlo, _game = page([3])
    started(browser)
    suggested = marked(browser)
    other = (suggested + 7) % 36
    button(browser, other).click()
    reach(browser, 1)
    record = countlo.game(1).record
    assert record.steps[0].cell == other
    assert record.steps[0].count == SimulatedOracle(SHAPE, 3).click(other)
    play(browser)
    record = solved_record(countlo.game(1))
    assert record.steps[0].cell == other


def test_two_quick_clicks_before_the_first_count_shows(browser, page):
    countlo, game = page([4], delay=600)
    started(browser)
    first = marked(browser)
    second = (first + 1) % 36
    start = f"当前有 {game.game.count} 盏灯亮着"
    shown = browser.execute_script(
        "const b = document.querySelectorAll('button.cell'); b[arguments[0]].click(); b[arguments[1]].click();"
        "return document.querySelector('p').textContent", first, second)
    assert shown == start  # neither count is shown yet
    reach(browser, 2)
    record = countlo.game(1).record
    assert [s.cell for s in record.steps[:2]] == [first, second]
    check = SimulatedOracle(SHAPE, 4)
    assert [s.count for s in record.steps[:2]] == [check.click(first), check.click(second)]
    play(browser)
    solved_record(countlo.game(1))


def test_a_click_whose_count_does_not_change(browser, page):
    countlo, game = page([5], delay=600)
    started(browser)
    same = game.game.unchanged()
    assert same, "seed 5 has a click that keeps the count"
    before = game.game.count
    button(browser, same[0]).click()
    reach(browser, 1)
    step = countlo.game(1).record.steps[0]
    assert (step.cell, step.count) == (same[0], before)
    play(browser)
    solved_record(countlo.game(1))


def test_a_reload_mid_game_starts_the_next_game_and_keeps_the_first(browser, page):
    countlo, _game = page([6, 8])
    started(browser)
    for n in range(4):
        button(browser, marked(browser)).click()
        reach(browser, n + 1)
    browser.refresh()  # the page draws a new board (init), and pairs again by itself
    started(browser)
    assert status(browser) == "paired"
    first = countlo.game(1)
    assert len(first.record.steps) == 4
    assert any("new board" in n for n in first.notes), first.notes
    play(browser)
    solved_record(countlo.game(2))
    assert "The page started a new game" in countlo.output()


def test_a_dropped_connection_loses_no_click(browser, page):
    countlo, _game = page([9], relay=True)
    started(browser)
    for n in range(3):
        button(browser, marked(browser)).click()
        reach(browser, n + 1)
    countlo.proxy.drop()
    wait_for(browser, "return document.getElementById('countlo-overlay').getAttribute('data-countlo-status') === 'offline'",
             "the overlay to say offline")
    a = marked(browser)
    button(browser, a).click()
    button(browser, (a + 5) % 36).click()
    time.sleep(0.3)
    assert len(countlo.game(1).record.steps) == 3  # nothing reached countlo
    countlo.proxy.restore()
    reach(browser, 5)
    record = countlo.game(1).record
    assert [s.cell for s in record.steps[3:5]] == [a, (a + 5) % 36]
    play(browser)
    solved_record(countlo.game(1))


def test_an_unpaired_page_sends_nothing_until_the_code_is_typed(browser, page):
    countlo, _game = page([10], approve=False)
    wait_for(browser, "return document.getElementById('countlo-overlay')?.getAttribute('data-countlo-status') === 'unpaired'",
             "the overlay to ask for the code")
    button(browser, 0).click()  # waits in the page
    time.sleep(0.3)
    assert countlo.game(1).record is None
    # what the page sends without pairing is refused, in one clear line
    said = browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch('http://127.0.0.1:' + arguments[0] + '/event', {method: 'POST', body: JSON.stringify("
        "{token: 'guess', page: 'x', seq: 0, kind: 'init', count: 3})}).then(r => r.json()).then(j => done(j.error));",
        countlo.port)
    assert said == "this page is not paired: type the code countlo shows in the terminal"
    field = browser.find_element("css selector", "#countlo-overlay input[name=code]")
    field.send_keys("000000" if countlo.code != "000000" else "111111", "\n")
    wait_for(browser, "return document.querySelector('#countlo-overlay .countlo-message').textContent.includes('wrong code')",
             "the wrong code refused")
    time.sleep(1.1)  # pairing waits a second after a wrong code
    field.send_keys("\b" * 12, countlo.code, "\n")
    reach(browser, 1)  # the start and the click that waited
    record = countlo.game(1).record
    assert record.steps[0].cell == 0
    play(browser)
    solved_record(countlo.game(1))


def test_a_page_from_another_origin_is_refused(browser, page):
    countlo, game = page([11], host="localhost")  # approved: http://127.0.0.1:PORT only
    wait_for(browser, "return document.getElementById('countlo-overlay')?.getAttribute('data-countlo-status') === 'refused'",
             "the overlay to say refused")
    message = browser.find_element("css selector", "#countlo-overlay .countlo-message").text
    assert f"countlo does not accept pages from http://localhost:{game.port}" in message
    assert browser.execute_script("return document.querySelectorAll('[data-countlo-next]').length") == 0
    time.sleep(0.2)
    assert countlo.game(1).record is None
    assert "A page was refused" in countlo.output()
    # the session is intact: the page from the right origin plays the game to the end
    browser.get(f"http://127.0.0.1:{game.port}/problem/CountLightsOut?delay={FAST}")
    play(browser)
    solved_record(countlo.game(1))


def test_a_page_calling_its_server_through_xmlhttprequest(browser, page):
    countlo, _game = page([12], query="&xhr=1")
    assert play(browser) == [len(solved_record(countlo.game(1)).steps)]


def test_without_the_server_answers_the_shown_count_is_read(browser, page):
    """A page whose server address the script does not know: the counts come from the text
    "当前有 N 盏灯亮着", an unchanged one once the page has had time to show it."""
    countlo, game = page([13], delay=100, query="&api=/rpc")
    started(browser)
    check = SimulatedOracle(SHAPE, 13)
    assert countlo.game(1).record.start == check.start()
    same = game.game.unchanged()
    cells = [marked(browser), *same[:1]]
    for n, cell in enumerate(cells, 1):
        button(browser, cell).click()
        reach(browser, n)
    record = countlo.game(1).record
    assert [(s.cell, s.count) for s in record.steps] == [(c, check.click(c)) for c in cells]
    button(browser, marked(browser)).click()
    reach(browser, len(cells) + 1)


def test_pause_holds_the_clicks_until_resume(browser, page):
    countlo, _game = page([14])
    started(browser)
    button(browser, marked(browser)).click()
    reach(browser, 1)
    pause = browser.find_element("css selector", "#countlo-overlay .countlo-pause")
    pause.click()
    assert status(browser) == "paused"
    held = marked(browser)
    button(browser, held).click()
    wait_for(browser, "return document.querySelector('#countlo-overlay .countlo-queue').textContent"
                      ".includes('waiting to be sent to countlo: 1')", "the click to wait in the page")
    assert len(countlo.game(1).record.steps) == 1
    pause.click()  # Resume
    reach(browser, 2)
    assert countlo.game(1).record.steps[1].cell == held
    play(browser)
    solved_record(countlo.game(1))


def test_a_click_waiting_when_the_page_reloads_is_sent_after_it(browser, page):
    countlo, _game = page([15, 16], relay=True)
    started(browser)
    button(browser, marked(browser)).click()
    reach(browser, 1)
    countlo.proxy.drop()
    wait_for(browser, "return document.getElementById('countlo-overlay').getAttribute('data-countlo-status') === 'offline'",
             "the overlay to say offline")
    cell = marked(browser)
    button(browser, cell).click()
    wait_for(browser, "return document.querySelector('#countlo-overlay .countlo-queue').textContent"
                      ".includes('waiting to be sent to countlo: 1')", "the click to wait in the page")
    browser.refresh()  # a new board; the click made before it still waits in this tab
    countlo.proxy.restore()
    started(browser)
    first = countlo.game(1)
    assert [s.cell for s in first.record.steps][1:] == [cell]
    assert any("new board" in n for n in first.notes), first.notes
    play(browser)
    solved_record(countlo.game(2))


# What a script manager gives a script granted GM_xmlhttpRequest, as far as this script uses it:
# a sandbox apart from the page (unsafeWindow is the page's window) and a request function that
# calls back with {status, responseText} (here made with the page's fetch, counted).
MANAGER = """
var unsafeWindow = {};
var GM_xmlhttpRequest = function (d) {
  window.countloGM = (window.countloGM || 0) + 1;
  fetch(d.url, {method: d.method, body: d.data}).then(function (r) {
    return r.text().then(function (t) { d.onload({status: r.status, responseText: t}); });
  }, d.onerror);
};
"""


def test_in_a_script_manager_sandbox_the_script_wraps_the_page_from_a_script_element(browser, page):
    """In a manager's sandbox the wrapping of fetch goes into the page as a script element, and
    countlo is called through GM_xmlhttpRequest."""
    countlo, _game = page([17], before=MANAGER)
    started(browser)
    assert browser.execute_script("return String(window.fetch).includes('api.test(url)')")
    assert browser.execute_script("return window.countloGM") > 2
    assert play(browser) == [len(solved_record(countlo.game(1)).steps)]
