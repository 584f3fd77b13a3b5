#!/usr/bin/env python3
"""The preview page of `mapsnap serve` (GET /) in headless Chromium, driven
by Selenium: the scene list comes from /scenes, the URL builder's URL is
the grammar's (docs/serve.md), the image it shows is the frame asked for,
and a bad size shows the server's message. Keeps a screenshot
(mapsnap-serve-preview.png, or the path given).

Usage: scripts/test-serve-browser.py path/to/mapsnap [screenshot.png]
Needs: Debian's chromium and chromium-driver, and selenium (make browser-deps).
"""
import os, sys

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

import chromium
from serve_harness import Server

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def fail(message):
    sys.exit("test-serve-browser: FAIL: " + message)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    exe, shot = os.path.abspath(sys.argv[1]), sys.argv[2] if len(sys.argv) > 2 else "mapsnap-serve-preview.png"
    server = Server(exe)
    base = "http://127.0.0.1:%d" % server.port
    try:
        driver = chromium.headless("1100,1000")
        try:
            driver.get(base + "/")
            wait = WebDriverWait(driver, 60)
            wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")
            scenes = [o.get_attribute("value") for o in driver.find_elements(By.CSS_SELECTOR, "#scene option")]
            if "helsinki" not in scenes or "bright" not in scenes:
                fail("the scene list is %s" % scenes)
            Select(driver.find_element(By.ID, "scene")).select_by_value("helsinki")
            Select(driver.find_element(By.ID, "view")).select_by_value("zoom")
            for field, value in (("center", "24.9414,60.1719"), ("level", "13"), ("size", "400x300"),
                                 ("overlays", "pin-l-a+e01e5a(24.9414,60.1719)")):
                e = driver.find_element(By.ID, field)
                e.clear()
                e.send_keys(value)
            driver.find_element(By.ID, "show").click()
            img = driver.find_element(By.ID, "map")
            wait.until(lambda d: img.get_attribute("data-state") in ("loaded", "error"))
            url = driver.find_element(By.ID, "url").text
            want = base + "/helsinki/static/pin-l-a+e01e5a(24.9414,60.1719)/24.9414,60.1719,13/400x300"
            if url != want:
                fail("the URL builder wrote %s, expected %s" % (url, want))
            if img.get_attribute("data-state") != "loaded":
                fail("the image did not load: %s" % driver.find_element(By.ID, "error").text)
            size = driver.execute_script("const i = document.getElementById('map'); return [i.naturalWidth, i.naturalHeight];")
            if size != [400, 300]:
                fail("the image is %s, expected 400x300" % size)
            driver.save_screenshot(shot)
            e = driver.find_element(By.ID, "size")
            e.clear()
            e.send_keys("0x0")
            driver.find_element(By.ID, "show").click()
            wait.until(lambda d: img.get_attribute("data-state") == "error")
            message = driver.find_element(By.ID, "error").text
            if not message.startswith("400 ") or "0x0" not in message:
                fail("a bad size shows %r" % message)
            print("test-serve-browser: the preview page builds the URL, shows the frame (400x300) and the server's errors; screenshot %s" % shot)
        finally:
            driver.quit()
    finally:
        server.stop()


if __name__ == "__main__":
    main()
