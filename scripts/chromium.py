"""Headless Chromium through Selenium, as the browser tests drive it
(scripts/test-html-report.py, scripts/test-serve-browser.py): Debian's
chromium and chromium-driver (make browser-deps)."""
import shutil

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service


def headless(window="1400,1000"):
    """A Chrome driver of a headless Chromium with a window of `window` pixels."""
    options = Options()
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=" + window):
        options.add_argument(arg)
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    if binary:
        options.binary_location = binary
    driver_path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    return webdriver.Chrome(service=Service(driver_path), options=options)
