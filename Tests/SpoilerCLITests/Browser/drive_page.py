#!/usr/bin/env python3
"""Drives a page written by `spoiler render --format html` in headless Chromium.

usage: drive_page.py PAGE.html OUTDIR [--reduced-motion] [--idle | --celebrate]

Loads the page at 800 x 200 CSS pixels (device pixel ratio 1), then takes PNG
screenshots into OUTDIR and prints one JSON object that the Swift tests read:
  words        each hidden word's client rectangle (per the browser's layout)
  innerText, selection   the page's text and a select-all copy, before any reveal
  focus        what Tab focuses first: its role and accessible name
  console      console messages of level SEVERE
  shots        the names of the screenshots, in OUTDIR:
    a.png, b.png      200 ms apart, before any reveal
    a-bare.png        as a.png with every dust canvas hidden (the page without dust)
    click.png, click-bare.png   1 s after a click on the first word (bare: no dust)
    key.png           1 s after Tab + Enter on a fresh load
  afterClick   innerText and each word's text 1 s after the click
  afterKey     innerText 1 s after Tab + Enter
With --idle it prints only "idle" and "console":
  idle         the runtime's frame counter (the message element's spoilerkitFrames)
               read 0.5 s apart on a fresh load: "onScreen" as loaded, "offScreen"
               with the page scrolled so that no spoiler shows, "back" scrolled back,
               "shown" after the page was hidden (another tab in front for
               0.8 s) and shown again; each a pair [before, after];
               visibilityChanges: the state, counter and time (ms) the page saw at
               each visibilitychange
With --celebrate (a window of 800 x 600) it clicks every hidden word, one spoiler
after another, and prints only "celebrate" and "console":
  celebrate    "shots": each {name, t}: a screenshot in OUTDIR and its time in seconds
               after the last click (negative: before it) — before.png between the first
               and the last click, then party-0.png, party-1.png, … while the confetti
               falls, then gone.png after the preset's lifetime;
               "pieces": [t, spoilerkitConfetti] read with each screenshot;
               "frames": the frame counter read 0.5 s apart after gone.png;
               "canvases": how many .sk-confetti canvases the page holds at the end
"""
import json
import os
import sys
import time

from selenium import webdriver
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys


def browser(reduced, height=200):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for arg in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--force-device-scale-factor=1", "--hide-scrollbars", "--window-size=800,%d" % height,
                "--font-render-hinting=none"]:
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = webdriver.ChromeService(executable_path="/usr/bin/chromedriver")
    driver = webdriver.Chrome(options=options, service=service)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 800, "height": height, "deviceScaleFactor": 1, "mobile": False})
    if reduced:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                               {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
    return driver


def rects(driver):
    return driver.execute_script("""
        return Array.from(document.querySelectorAll('.sk-word')).map(function (el) {
          var r = el.getBoundingClientRect();
          return {x: r.left, y: r.top, width: r.width, height: r.height, text: el.textContent};
        });""")


def shot(driver, outdir, name, bare=False):
    if bare:
        driver.execute_script("document.querySelectorAll('.sk-layer canvas').forEach(function (c) { c.style.visibility = 'hidden'; });")
    driver.save_screenshot(os.path.join(outdir, name))
    if bare:
        driver.execute_script("document.querySelectorAll('.sk-layer canvas').forEach(function (c) { c.style.visibility = ''; });")
    return name


def frames(driver):
    return driver.execute_script("return document.querySelector('.spoilerkit').spoilerkitFrames")


def counted(driver, settle=0.3, span=0.5):
    """The frame counter read `span` seconds apart, after `settle` seconds."""
    time.sleep(settle)
    before = frames(driver)
    time.sleep(span)
    return [before, frames(driver)]


def idle(driver, url):
    driver.get(url)
    time.sleep(0.5)
    result = {"onScreen": counted(driver)}
    driver.execute_script("var s = document.createElement('div'); s.style.height = '3000px';"
                          " document.body.appendChild(s); window.scrollTo(0, 2000);")
    result["offScreen"] = counted(driver)
    driver.execute_script("window.scrollTo(0, 0);")
    result["back"] = counted(driver)
    # The page records the counter itself when it is hidden and shown again.
    driver.execute_script("""
        var el = document.querySelector('.spoilerkit');
        window.skVisibility = [];
        document.addEventListener('visibilitychange', function () {
          window.skVisibility.push({state: document.visibilityState, frames: el.spoilerkitFrames,
                                    ms: performance.now()});
        });""")
    page = driver.current_window_handle
    driver.switch_to.new_window("tab")
    time.sleep(0.8)
    driver.close()
    driver.switch_to.window(page)
    driver.execute_cdp_cmd("Page.bringToFront", {})
    result["shown"] = counted(driver)
    result["visibilityChanges"] = driver.execute_script("return window.skVisibility")
    return result


def celebrate(driver, url, outdir):
    driver.get(url)
    time.sleep(0.5)
    pieces = "var v = document.querySelector('.spoilerkit').spoilerkitConfetti; return v === undefined ? -1 : v;"
    spoilers = driver.find_elements(By.CSS_SELECTOR, ".sk-spoiler")
    shots, counts = [], []
    for sp in spoilers[:-1]:
        ActionChains(driver).move_to_element(sp).click().perform()
    time.sleep(1.0)
    shots.append({"name": shot(driver, outdir, "before.png"), "t": -0.1})
    counts.append([-0.1, driver.execute_script(pieces)])
    ActionChains(driver).move_to_element(spoilers[-1]).click().perform()
    clicked = time.monotonic()
    for k, at in enumerate([0.5, 1.0]):
        time.sleep(max(0, at - (time.monotonic() - clicked)))
        t = time.monotonic() - clicked
        counts.append([t, driver.execute_script(pieces)])
        shots.append({"name": shot(driver, outdir, "party-%d.png" % k), "t": t})
    # The preset's lifetime (7 s) after the births (1.5 s), and a little more.
    time.sleep(max(0, 9.0 - (time.monotonic() - clicked)))
    t = time.monotonic() - clicked
    counts.append([t, driver.execute_script(pieces)])
    shots.append({"name": shot(driver, outdir, "gone.png"), "t": t})
    return {"shots": shots, "pieces": counts, "frames": counted(driver, settle=0),
            "canvases": driver.execute_script("return document.querySelectorAll('.sk-confetti').length")}


def main():
    page, outdir = os.path.abspath(sys.argv[1]), sys.argv[2]
    reduced = "--reduced-motion" in sys.argv
    os.makedirs(outdir, exist_ok=True)
    url = "file://" + page
    result = {"shots": []}
    if "--celebrate" in sys.argv:
        driver = browser(reduced, height=600)
        try:
            result = {"celebrate": celebrate(driver, url, outdir),
                      "console": [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]}
        finally:
            driver.quit()
        print(json.dumps(result))
        return
    driver = browser(reduced)
    if "--idle" in sys.argv:
        try:
            result = {"idle": idle(driver, url),
                      "console": [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]}
        finally:
            driver.quit()
        print(json.dumps(result))
        return
    try:
        driver.get(url)
        time.sleep(0.5)
        result["words"] = rects(driver)
        result["innerText"] = driver.execute_script("return document.body.innerText")
        result["textContent"] = driver.execute_script("return document.body.textContent")
        result["selection"] = driver.execute_script(
            "document.execCommand('selectAll'); var s = window.getSelection().toString();"
            " window.getSelection().removeAllRanges(); return s;")
        result["shots"].append(shot(driver, outdir, "a.png"))
        start = time.monotonic()
        result["shots"].append(shot(driver, outdir, "a-bare.png", bare=True))
        time.sleep(max(0, 0.2 - (time.monotonic() - start)))
        result["shots"].append(shot(driver, outdir, "b.png"))

        first = driver.find_elements(By.CSS_SELECTOR, ".sk-word")[0]
        ActionChains(driver).move_to_element(first).click().perform()
        time.sleep(1.0)
        result["afterClick"] = {"innerText": driver.execute_script("return document.body.innerText"),
                                "words": rects(driver)}
        result["shots"].append(shot(driver, outdir, "click.png"))
        result["shots"].append(shot(driver, outdir, "click-bare.png", bare=True))

        driver.get(url)
        time.sleep(0.5)
        ActionChains(driver).send_keys(Keys.TAB).perform()
        result["focus"] = driver.execute_script("""
            var e = document.activeElement;
            return {role: e.getAttribute('role'), name: e.getAttribute('aria-label'), tag: e.tagName,
                    className: e.className};""")
        ActionChains(driver).send_keys(Keys.ENTER).perform()
        time.sleep(1.0)
        result["afterKey"] = {"innerText": driver.execute_script("return document.body.innerText"),
                              "words": rects(driver)}
        result["shots"].append(shot(driver, outdir, "key.png"))
        result["console"] = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
    finally:
        driver.quit()
    print(json.dumps(result))


if __name__ == "__main__":
    main()
