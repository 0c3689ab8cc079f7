#!/usr/bin/env python3
"""Drives a running `quire serve` for ServeTests: as an attacker over raw HTTP, and as a user in
Debian's chromium through chromium-driver (selenium). Prints one JSON object of what it saw; the
Swift test asserts on it and on the vault's files.

    serve-check.py attacks URL VAULT
    serve-check.py fetch URL PATH
    serve-check.py browser URL VAULT SHOTS_DIR
"""
import http.client
import json
import os
import sys
import time
import urllib.parse


def split(url):
    parts = urllib.parse.urlsplit(url)
    token = urllib.parse.parse_qs(parts.fragment)["token"][0]
    return parts.hostname, parts.port, token


def request(host, port, method, path, headers=None, body=None, host_header=None):
    """One raw request: the path sent as given (no normalising), any Host header."""
    conn = http.client.HTTPConnection(host, port, timeout=10)
    conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
    conn.putheader("Host", host_header if host_header is not None else f"{host}:{port}")
    for k, v in (headers or {}).items():
        conn.putheader(k, v)
    data = body.encode() if isinstance(body, str) else body
    if data is not None:
        conn.putheader("Content-Length", str(len(data)))
    conn.endheaders(data)
    r = conn.getresponse()
    payload = r.read()
    result = {"status": r.status, "headers": {k.lower(): v for k, v in r.getheaders()}, "body": payload.decode("utf-8", "replace")[:400]}
    conn.close()
    return result


def attacks(url, vault):
    host, port, token = split(url)
    auth = {"X-Quire-Token": token}
    page = dict(auth, **{"X-Quire-Page": "1", "Content-Type": "application/json"})
    out = {}

    def status(name, *args, **kwargs):
        r = request(host, port, *args, **kwargs)
        out[name] = r["status"]
        return r

    # The token: in its header only. No cookie is set or taken (a browser sends a host's cookies
    # to every port of it: the credential would reach any program on this machine).
    status("no token", "GET", "/api/overview")
    status("wrong token", "GET", "/api/overview", {"X-Quire-Token": "0" * len(token)})
    status("token in a cookie", "GET", "/api/overview", {"Cookie": f"quire_{port}={token}"})
    status("token in the query", "GET", "/api/overview?token=" + token)
    status("old address form", "GET", "/?token=" + token)
    shell = status("page without token", "GET", "/")
    out["cookie set"] = shell["headers"].get("set-cookie", "")
    ok = status("with the token", "GET", "/api/overview", auth)
    out["policy"] = ok["headers"].get("content-security-policy", "")
    out["nosniff"] = ok["headers"].get("x-content-type-options", "")
    out["overview start"] = ok["body"][:1]
    links = json.loads(request(host, port, "GET", "/api/links", auth)["body"])
    key = links["key"]
    status("links without token", "GET", "/api/links", {"Cookie": f"quire_{port}={token}"})
    report = status("report", "GET", links["report"])
    out["report policy"] = report["headers"].get("content-security-policy", "")
    out["report start"] = report["body"][:15]
    status("report without key", "GET", "/report")
    status("link key for the API", "GET", "/api/overview?k=" + key, {"X-Quire-Token": key})
    # Host: DNS rebinding names, other ports, none.
    status("foreign host", "GET", "/api/overview", auth, host_header=f"attacker.example:{port}")
    status("rebinding name", "GET", "/api/overview", auth, host_header=f"127.0.0.1.nip.io:{port}")
    status("other port", "GET", "/api/overview", auth, host_header=f"127.0.0.1:{port + 1}")
    status("empty host", "GET", "/api/overview", auth, host_header="")
    status("localhost", "GET", "/api/overview", auth, host_header=f"localhost:{port}")
    # Origin: another site's page posting with the user's token (a browser's page of another site
    # cannot know it; here it is sent, to check the Origin check alone).
    status("foreign origin", "POST", "/api/sessions", dict(page, Origin="http://attacker.example"), body="{}")
    status("null origin", "POST", "/api/sessions", dict(page, Origin="null"), body="{}")
    status("no page header", "POST", "/api/sessions", dict(auth, **{"Content-Type": "text/plain"}), body="{}")
    status("own origin", "POST", "/api/sessions", dict(page, Origin=f"http://{host}:{port}"), body="{}")
    # Fetch metadata: a browser's cross-site or same-site (another port) request changes nothing.
    status("cross-site fetch", "POST", "/api/sessions", dict(page, **{"Sec-Fetch-Site": "cross-site"}), body="{}")
    status("same-site fetch", "POST", "/api/sessions", dict(page, **{"Sec-Fetch-Site": "same-site"}), body="{}")
    status("same-origin fetch", "POST", "/api/sessions", dict(page, **{"Sec-Fetch-Site": "same-origin"}), body="{}")
    # Headers past their limits: refused, the server still answering.
    try:
        status("huge header", "GET", "/api/overview", dict(auth, **{"X-Big": "a" * 40000}))
    except Exception:
        out["huge header"] = 0
    try:
        status("many headers", "GET", "/api/overview", dict(auth, **{f"X-H{i}": "a" for i in range(300)}))
    except Exception:
        out["many headers"] = 0
    # Files: traversal in every spelling, hidden folders, links, special files.
    for name, path in [
        ("image", "/file/Web/dot.png"),
        ("dot dot", "/file/../../../../etc/passwd"),
        ("dot dot inside", "/file/Web/../Web/dot.png"),
        ("encoded dot dot", "/file/%2e%2e/%2e%2e/etc/passwd"),
        ("encoded slash", "/file/Web%2f..%2f..%2fetc%2fpasswd"),
        ("double encoded", "/file/%252e%252e/etc/passwd"),
        ("absolute", "/file//etc/passwd"),
        ("backslash", "/file/..\\..\\etc\\passwd"),
        ("nul", "/file/Web/dot.png%00.png"),
        ("quire folder", "/file/.quire/config.yaml"),
        ("git folder", "/file/.git/config"),
        ("a note", "/file/Web/Media.md"),
        ("link out", "/file/Web/outside.png"),
        ("hard link out", "/file/Web/hard.png"),
        ("folder link out", "/file/Outside/secret.png"),
        ("fifo", "/file/Web/pipe.png"),
        ("device link", "/file/Web/zero.png"),
        ("katex outside", "/katex/../../../etc/passwd"),
        ("katex font traversal", "/katex/fonts/KaTeX_..%2f..%2f..%2fetc%2fpasswd"),
    ]:
        r = status(name, "GET", path + "?k=" + key)
        if name == "image":
            out["image type"] = r["headers"].get("content-type", "")
            out["image policy"] = r["headers"].get("content-security-policy", "")
    status("image without key", "GET", "/file/Web/dot.png")
    return out


def other_port_headers(driver):
    """The headers the browser sends to a plain server on another port of 127.0.0.1."""
    import http.server
    import threading
    got = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            got.append(dict(self.headers.items()))
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(b"<!doctype html><title>other</title><p>another program")

        def log_message(self, *args):
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        driver.get(f"http://127.0.0.1:{server.server_address[1]}/")
        time.sleep(0.3)
    finally:
        server.shutdown()
    return got


def browser(url, vault, shots):
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    options = Options()
    for a in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1200,900", "--disable-dev-shm-usage",
              "--force-device-scale-factor=1", "--autoplay-policy=no-user-gesture-required"]:
        options.add_argument(a)
    options.binary_location = "/usr/bin/chromium"
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    from selenium.common.exceptions import StaleElementReferenceException
    wait = WebDriverWait(driver, 15, ignored_exceptions=[StaleElementReferenceException])
    seen = {"graded": [], "console": []}

    def body():
        return driver.find_element(By.TAG_NAME, "body")

    def card_id():
        # Read in one script: the page replaces the card's element as it moves on.
        return driver.execute_script("const a = document.querySelector('article.card[data-card]'); return a ? a.dataset.card : null")

    def wait_card(other_than=None):
        wait.until(lambda d: card_id() is not None and card_id() != other_than)
        return card_id()

    def shot(name):
        driver.save_screenshot(os.path.join(shots, name + ".png"))

    try:
        driver.get(url)
        wait.until(lambda d: d.find_elements(By.ID, "study"))
        seen["address after login"] = driver.current_url
        seen["overview"] = driver.find_element(By.ID, "main").text
        shot("overview-desktop-light")
        # Today's plan, by keyboard: Space shows the answer, 3 grades Good.
        driver.find_element(By.ID, "study").click()
        first = wait_card()
        seen["first front"] = driver.find_element(By.CSS_SELECTOR, "article.card").text
        body().send_keys(" ")
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".grades button"))
        seen["buttons"] = [b.text.replace("\n", " ") for b in driver.find_elements(By.CSS_SELECTOR, ".grades button")]
        shot("review-back-desktop-light")
        body().send_keys("3")
        second = wait_card(first)
        seen["graded"].append([first, "good"])
        # By clicking: show the answer, Again.
        driver.find_element(By.ID, "reveal").click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".grades button.again"))
        driver.find_element(By.CSS_SELECTOR, ".grades button.again").click()
        third = wait_card(second)
        seen["graded"].append([second, "again"])
        # Undo: the card answered Again comes back.
        body().send_keys("u")
        wait.until(lambda d: card_id() == second)
        seen["after undo"] = card_id()
        seen["graded"].pop()
        # e: the note in $EDITOR on the computer, at the card's line.
        body().send_keys("e")
        wait.until(lambda d: os.path.exists(os.path.join(vault, "..", "editor-args")))
        seen["editor args"] = open(os.path.join(vault, "..", "editor-args"), encoding="utf-8").read().split()
        # Edited outside: the card's note changes on disk; the page follows.
        card = driver.find_element(By.CSS_SELECTOR, "article.card")
        path = driver.find_element(By.CSS_SELECTOR, ".where").text.split(":")[0]
        seen["edited note"] = path
        note = os.path.join(vault, path)
        text = open(note, encoding="utf-8").read()
        front = card.find_elements(By.CSS_SELECTOR, ".side")[0].text.strip().split("\n")[0]
        word = front.split()[0]
        changed = text.replace(word, word + " EDITED-OUTSIDE", 1)
        with open(note, "w", encoding="utf-8") as f:
            f.write(changed)
        wait.until(lambda d: "EDITED-OUTSIDE" in d.find_element(By.CSS_SELECTOR, "article.card").text)
        seen["edit followed"] = True
        # A second tab on the same vault studies too; the first answers, the second never repeats it.
        driver.switch_to.new_window("tab")
        driver.get(url.split("#")[0])
        wait.until(lambda d: d.find_elements(By.ID, "study"))
        driver.find_element(By.ID, "study").click()
        other = wait_card()
        seen["second tab first card"] = other
        driver.switch_to.window(driver.window_handles[0])
        # The media deck: math, code, image, sound.
        body().send_keys("q")
        wait.until(lambda d: d.find_elements(By.ID, "study"))
        driver.find_element(By.CSS_SELECTOR, "button[aria-label='Study Web']").click()
        wait_card()
        for _ in range(16):
            typing = driver.find_elements(By.ID, "answer")
            if typing:
                typing[0].send_keys("cosa" + Keys.ENTER)
                wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".typed"))
                seen["typed comparison"] = driver.find_element(By.CSS_SELECTOR, ".typed").text
            else:
                body().send_keys(" ")
            wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".grades button"))
            article = driver.find_element(By.CSS_SELECTOR, "article.card")
            html = article.get_attribute("innerHTML")
            if "katex" in html:
                seen["math"] = len(article.find_elements(By.CSS_SELECTOR, ".katex"))
                shot("math-desktop-light")
            if "hljs" in html:
                seen["code"] = len(article.find_elements(By.CSS_SELECTOR, "code.hljs, code .hljs-keyword"))
            for img in article.find_elements(By.TAG_NAME, "img"):
                seen["image width"] = driver.execute_script("return arguments[0].naturalWidth", img)
                if img.get_attribute("alt") == "dot.png" and driver.execute_script("return arguments[0].naturalWidth", img) == 4:
                    seen["embed width"] = img.get_attribute("width")
            for audio in article.find_elements(By.TAG_NAME, "audio"):
                seen["audio"] = driver.execute_script(
                    "const a = arguments[0]; return new Promise(r => { a.preload = 'auto'; a.load();"
                    " a.addEventListener('loadedmetadata', () => r(a.duration), {once: true});"
                    " a.addEventListener('error', () => r(-1), {once: true}); setTimeout(() => r(-2), 5000); })", audio)
            if "alert" in article.text:
                seen["script text shown"] = True
                seen["script elements"] = len(driver.find_elements(By.CSS_SELECTOR, "article.card script"))
                seen["alerted"] = driver.execute_script("return window.__quireAlerted === true")
            current = card_id()
            body().send_keys("1" if len(seen["graded"]) % 2 else "3")
            seen["graded"].append([current, "again" if len(seen["graded"]) % 2 else "good"])
            # Answered: the next card (or the same one, back from Again) shows its front.
            wait.until(lambda d: not d.find_elements(By.CSS_SELECTOR, ".grades button"))
            if driver.find_elements(By.CSS_SELECTOR, ".summary") or not driver.find_elements(By.CSS_SELECTOR, "article.card"):
                break
        # Search: "/" focuses the box; the hits mark the words found.
        body().send_keys("q")
        wait.until(lambda d: d.find_elements(By.ID, "study"))
        body().send_keys("/")
        driver.switch_to.active_element.send_keys("mitochondria" + Keys.ENTER)
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".hits li, main p"))
        wait.until(lambda d: "Search:" in d.find_element(By.ID, "main").text)
        seen["search hits"] = len(driver.find_elements(By.CSS_SELECTOR, ".hits li"))
        seen["search marks"] = [m.text for m in driver.find_elements(By.CSS_SELECTOR, ".hits mark")]
        shot("search-desktop-light")
        # Read: the hit's note rendered on the page, scrolled to the hit; back to the hits.
        driver.find_element(By.CSS_SELECTOR, ".hits li button[title='Read the note here']").click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".card.note #hit"))
        seen["read text"] = driver.find_element(By.CSS_SELECTOR, ".card.note").text
        seen["read hit shown"] = driver.execute_script(
            "const r = document.getElementById('hit').getBoundingClientRect(); return r.top >= 0 && r.top < window.innerHeight;")
        shot("read-desktop-light")
        driver.find_element(By.XPATH, "//button[text()='Back to the hits']").click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".hits li"))
        # Curation: the oldest weekly review; k keeps the note, then finish.
        driver.find_element(By.ID, "main").click()
        body().send_keys("q")
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "button[aria-label='Curate weekly']"))
        driver.find_element(By.CSS_SELECTOR, "button[aria-label='Curate weekly']").click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "article.card[data-note]"))
        seen["curated note"] = driver.find_element(By.CSS_SELECTOR, "article.card").get_attribute("data-note")
        seen["curation heading"] = driver.find_element(By.TAG_NAME, "h1").text
        shot("curation-desktop-light")
        body().send_keys("k")
        wait.until(lambda d: not d.find_elements(By.CSS_SELECTOR, "article.card[data-note='%s']" % seen["curated note"]))
        body().send_keys("q")
        wait.until(lambda d: d.find_elements(By.ID, "study"))
        # Screens: phone width, light and dark.
        body().send_keys("q")
        wait.until(lambda d: d.find_elements(By.ID, "study"))
        driver.find_element(By.ID, "study").click()
        wait_card()
        body().send_keys(" ")
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".grades button"))
        driver.set_window_size(375, 812)
        time.sleep(0.3)
        shot("review-back-phone-light")
        seen["phone overflow"] = driver.execute_script("return document.documentElement.scrollWidth > window.innerWidth")
        body().send_keys("t")
        time.sleep(0.3)
        seen["theme"] = driver.execute_script("return document.documentElement.dataset.theme")
        shot("review-back-phone-dark")
        driver.set_window_size(1200, 900)
        time.sleep(0.3)
        shot("review-back-desktop-dark")
        body().send_keys("q")
        wait.until(lambda d: d.find_elements(By.ID, "study"))
        driver.set_window_size(375, 812)
        time.sleep(0.3)
        shot("overview-phone-dark")
        seen["phone overview overflow"] = driver.execute_script("return document.documentElement.scrollWidth > window.innerWidth")
        seen["console"] = [e["message"] for e in driver.get_log("browser") if e["level"] in ("SEVERE", "WARNING")]
        # Another program on another port of this machine, visited by the same browser: it
        # receives nothing of the page's credential (a cookie went to every port of the host).
        # Another site sends the browser to the page with a token of its own: the page's own
        # token is kept, and the page still works.
        driver.get(url.split("#")[0] + "#token=" + "0" * 32)
        wait.until(lambda d: d.find_elements(By.ID, "study"))
        seen["after a foreign token"] = driver.find_element(By.ID, "main").text
        seen["other port headers"] = other_port_headers(driver)
        seen["cookies"] = [c["name"] for c in driver.get_cookies()]
        seen["history"] = driver.execute_script("return location.href")
    finally:
        driver.quit()
    return seen


if __name__ == "__main__":
    if sys.argv[1] == "fetch":
        # serve-check.py fetch URL PATH: PATH with the URL's token, at the URL's host.
        h, p, t = split(sys.argv[2])
        print(json.dumps({"status": request(h, p, "GET", sys.argv[3], {"X-Quire-Token": t})["status"]}))
    elif sys.argv[1] == "attacks":
        print(json.dumps(attacks(sys.argv[2], sys.argv[3])))
    else:
        print(json.dumps(browser(sys.argv[2], sys.argv[3], sys.argv[4])))
