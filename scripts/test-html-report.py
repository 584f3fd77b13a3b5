#!/usr/bin/env python3
"""The HTML report of `mapsnap test` in a real browser (issue 11): headless
Chromium, driven by Selenium, opens a report with one failing image and
checks that

- every image is loaded (complete, natural size of the rendered frame, none
  broken);
- moving the slider changes what is shown (the actual image's clip);
- by pixels, which image is on which side: at the slider's 35 % and 65 %,
  the pixels where the expected and actual images differ show the actual
  image left of the split and the expected image right of it, as the
  label says ("actual left, expected right");
- the toggle buttons show the expected, actual and diff images in turn;

and keeps a screenshot (the CI artifact, also docs/images/test-report.png).

Usage: scripts/test-html-report.py path/to/mapsnap [screenshot.png]
Needs: Debian's chromium and chromium-driver, and selenium (PyPI)
(`make browser-deps`).
"""
import json, os, shutil, subprocess, sys, tempfile

from selenium.webdriver.common.by import By

import chromium

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def fail(message):
    sys.exit("test-html-report: FAIL: " + message)


# In the page: the compare view's screenshot (base64 PNG) against the
# expected and actual images (decoded on canvases). Of the pixels where
# those two differ, counts how many of the screenshot's are closer to the
# actual image and how many to the expected one, left and right of the
# split (the slider's value, in % of the width; 2 px each side left out).
SIDES = """
const [shot, value, done] = arguments;
const pixels = src => new Promise((resolve, reject) => {
  const img = new Image();
  img.onload = () => {
    const c = document.createElement('canvas');
    c.width = img.naturalWidth; c.height = img.naturalHeight;
    const g = c.getContext('2d');
    g.drawImage(img, 0, 0);
    resolve(g.getImageData(0, 0, c.width, c.height));
  };
  img.onerror = reject;
  img.src = src;
});
Promise.all([pixels('data:image/png;base64,' + shot), pixels(document.querySelector('.images img.expected').src),
             pixels(document.querySelector('.images img.actual').src)]).then(([s, e, a]) => {
  const out = {size: [s.width, s.height], left: {actual: 0, expected: 0}, right: {actual: 0, expected: 0}};
  if (s.width !== e.width || s.height !== e.height) { done(out); return; }
  const split = e.width * value / 100;
  const dist = (p, q, i) => Math.abs(p.data[i] - q.data[i]) + Math.abs(p.data[i + 1] - q.data[i + 1]) + Math.abs(p.data[i + 2] - q.data[i + 2]);
  for (let y = 0; y < e.height; y++) for (let x = 0; x < e.width; x++) {
    if (Math.abs(x + 0.5 - split) < 2) continue;
    const i = 4 * (y * e.width + x);
    if (dist(e, a, i) < 60) continue;
    const side = x < split ? out.left : out.right;
    if (dist(s, a, i) < dist(s, e, i)) side.actual++; else side.expected++;
  }
  done(out);
}, err => done({error: String(err)}));
"""


def main():
    exe = os.path.abspath(sys.argv[1])
    shot = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else os.path.join(ROOT, "mapsnap-test-report.png")
    work = tempfile.mkdtemp(prefix="mapsnap-html.")
    try:
        case = os.path.join(work, "cases", "helsinki")
        os.makedirs(case)
        scene = json.load(open(os.path.join(ROOT, "Examples/helsinki.json")))
        for layer in scene["layers"]:
            src = layer.get("source", {})
            if "geojson" in src:
                src["geojson"] = os.path.join(ROOT, "Examples", src["geojson"])
        scene["map"]["size"] = [320, 240]
        json.dump(scene, open(os.path.join(case, "scene.json"), "w"))
        json.dump({"scales": [4000], "reports": False}, open(os.path.join(case, "golden.json"), "w"))
        env = dict(os.environ)
        env.pop("CI", None)
        env.pop("GITHUB_ACTIONS", None)
        # The expected image: the same map with two markers more, one in
        # each half (about 80 px left and right of the centre at 1:4000), so
        # the case fails and the images differ on both sides of the slider.
        lon, lat = scene["map"]["center"]
        subprocess.run([exe, os.path.join(case, "scene.json"), "--scale", "4000",
                        "--marker", "%r,%r|label:West" % (lon - 0.0008, lat), "--marker", "%r,%r|label:East" % (lon + 0.0008, lat),
                        "-o", os.path.join(case, "4000.png")], check=True, env=env)
        r = subprocess.run([exe, "test", "cases"], cwd=work, env=env, capture_output=True, text=True)
        if r.returncode != 1:
            fail("mapsnap test should fail the case, exit %d: %s" % (r.returncode, r.stderr))
        report = os.path.join(work, "mapsnap-test-report.html")

        driver = chromium.headless("1400,1000")
        try:
            driver.get("file://" + report)
            images = driver.find_elements(By.TAG_NAME, "img")
            if len(images) < 5:
                fail("expected at least 5 images (slider pair, expected, actual, diff), found %d" % len(images))
            for img in images:
                ok = driver.execute_script("return arguments[0].complete && arguments[0].naturalWidth", img)
                w = driver.execute_script("return arguments[0].naturalWidth", img)
                h = driver.execute_script("return arguments[0].naturalHeight", img)
                if not ok or (w, h) != (320, 240):
                    fail("image %s not loaded at 320x240 (complete/width %r, %rx%r)" % (img.get_attribute("alt"), ok, w, h))
            top = driver.find_element(By.CSS_SELECTOR, ".compare .top")
            bottom = driver.find_element(By.CSS_SELECTOR, ".compare .bottom")
            slider = driver.find_element(By.CSS_SELECTOR, ".slider")
            before = driver.execute_script("return getComputedStyle(arguments[0]).clipPath", top)
            driver.execute_script("arguments[0].value = 80; arguments[0].dispatchEvent(new Event('input'))", slider)
            after = driver.execute_script("return getComputedStyle(arguments[0]).clipPath", top)
            if before == after or "20%" not in after:
                fail("moving the slider to 80 did not reveal more of the actual image (%r → %r)" % (before, after))
            label = driver.find_element(By.CSS_SELECTOR, ".showing").text
            if not label.startswith("actual left, expected right"):
                fail("the slider's label should say the actual image is left, the expected right: %r" % label)
            for value in (35, 65):
                driver.execute_script("arguments[0].value = %d; arguments[0].dispatchEvent(new Event('input'))" % value, slider)
                sides = driver.execute_async_script(SIDES, bottom.screenshot_as_base64, value)
                left, right = sides["left"], sides["right"]
                if sides["size"] != [320, 240]:
                    fail("the compare view's screenshot is %r, not 320x240" % sides["size"])
                if left["actual"] < 20 or right["expected"] < 20:
                    fail("at %d %%, too few differing pixels on each side to tell the images apart: %r" % (value, sides))
                if left["expected"] > left["actual"] / 20 or right["actual"] > right["expected"] / 20:
                    fail("at %d %%, the actual image should be left of the split and the expected right: %r" % (value, sides))
            shown = {}
            for name in ("expected", "actual", "diff"):
                driver.find_element(By.CSS_SELECTOR, "button[data-show='%s']" % name).click()
                shown[name] = driver.execute_script("return arguments[0].src", bottom)
                visible = driver.execute_script("return getComputedStyle(arguments[0]).display", top)
                if visible != "none":
                    fail("the %s toggle left the slider's top image visible" % name)
            if len(set(shown.values())) != 3:
                fail("the toggle did not show three different images")
            driver.execute_script("arguments[0].value = 50; arguments[0].dispatchEvent(new Event('input'))", slider)
            driver.save_screenshot(shot)
            print("test-html-report: passed (%d images loaded, actual left and expected right of the slider, toggle works); screenshot %s"
                  % (len(images), shot))
        finally:
            driver.quit()
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
