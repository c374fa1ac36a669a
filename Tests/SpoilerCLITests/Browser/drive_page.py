#!/usr/bin/env python3
"""Drives a page written by `spoiler render --format html` in headless Chromium.

usage: drive_page.py PAGE.html OUTDIR [--reduced-motion]

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
"""
import json
import os
import sys
import time

from selenium import webdriver
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys


def browser(reduced):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for arg in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--force-device-scale-factor=1", "--hide-scrollbars", "--window-size=800,200",
                "--font-render-hinting=none"]:
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = webdriver.ChromeService(executable_path="/usr/bin/chromedriver")
    driver = webdriver.Chrome(options=options, service=service)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 800, "height": 200, "deviceScaleFactor": 1, "mobile": False})
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


def main():
    page, outdir = os.path.abspath(sys.argv[1]), sys.argv[2]
    reduced = "--reduced-motion" in sys.argv
    os.makedirs(outdir, exist_ok=True)
    url = "file://" + page
    result = {"shots": []}
    driver = browser(reduced)
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
