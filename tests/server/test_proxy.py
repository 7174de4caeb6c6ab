"""docs/deploy.md's nginx configuration, run: over https on a port other
than 443, the session cookie is Secure and a signed-in handshake from the page's own Origin is
signed in; forwarded headers are believed from the proxy only."""

from __future__ import annotations

import json
import re
import shutil
import ssl
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from baofen import RuleSet
from baofen.server import ServerConfig

from .accounts import PASSWORD
from .harness import FAST, ROOT, TIMEOUT, ThreadServer, create_table, free_port

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def documented_config(upstream: str, port: int, directory: Path) -> str:
    """deploy.md's nginx block, pointed at ``upstream`` and listening on ``port`` with a
    self-signed certificate, in a whole nginx.conf of its own."""
    text = (ROOT / "docs" / "deploy.md").read_text()
    block = re.search(r"```nginx\n(.*?)```", text, re.S)
    assert block is not None, "deploy.md has no nginx block"
    server = re.sub(r"upstream baofen \{.*?\n\}", f"upstream baofen {{ server {upstream}; }}",
                    block.group(1), flags=re.S)
    server = server.replace("listen 443 ssl http2;", f"listen 127.0.0.1:{port} ssl;")
    server = server.replace(
        "# ssl_certificate …;",
        f"ssl_certificate {directory}/cert.pem; ssl_certificate_key {directory}/key.pem;")
    assert f"listen 127.0.0.1:{port} ssl;" in server and "cert.pem" in server
    temp = " ".join(f"{kind}_temp_path {directory}/{kind};"
                    for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    return (f"user root; pid {directory}/nginx.pid; error_log {directory}/error.log;\n"
            f"events {{}}\nhttp {{ access_log off; {temp}\n{server}\n}}\n")


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[tuple[ThreadServer, str]]:
    """The server behind nginx: it and the https base URL of the proxy."""
    if not Path(NGINX).exists():
        pytest.skip("nginx is not installed (apt-get install -y nginx): .ci/run installs it")
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=127.0.0.1", "-keyout", str(tmp_path / "key.pem"),
         "-out", str(tmp_path / "cert.pem")], check=True, capture_output=True)
    live = ThreadServer(ServerConfig(db=f"sqlite:///{tmp_path / 'baofen.db'}", **FAST))
    port = free_port()
    conf = tmp_path / "nginx.conf"
    conf.write_text(documented_config(live.base.removeprefix("http://"), port, tmp_path))
    nginx = subprocess.Popen([NGINX, "-c", str(conf), "-g", "daemon off;"],
                             stderr=subprocess.PIPE)
    base = f"https://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{base}/health", verify=False).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert nginx.poll() is None, nginx.stderr.read() if nginx.stderr else ""
            assert time.monotonic() < deadline, "nginx did not start"
            time.sleep(0.1)
        yield live, base
    finally:
        nginx.terminate()
        nginx.wait(10)
        live.stop()


def test_the_documented_nginx_keeps_the_account_protections(
    proxied: tuple[ThreadServer, str],
) -> None:
    live, base = proxied
    client = httpx.Client(base_url=base, verify=False)
    response = client.post("/api/accounts", json={"username": "Proxied", "password": PASSWORD})
    assert response.status_code == 201, response.text
    cookie = response.headers["set-cookie"]
    assert "secure" in cookie.lower(), cookie  # the node knew the player came over https
    token = client.cookies["baofen_session"]
    code = create_table(live.base, RuleSet.baofen().to_dict())
    # The page's own Origin, on a port other than 443, is the host the node sees.
    unverified = ssl.create_default_context()
    unverified.check_hostname, unverified.verify_mode = False, ssl.CERT_NONE
    headers = {"Cookie": f"baofen_session={token}", "Origin": base}
    url = base.replace("https", "wss", 1) + f"/ws/tables/{code}"
    with connect(url, ssl=unverified, additional_headers=headers) as ws:
        ws.send(json.dumps({"type": "join", "seat": 0, "name": "someone"}))
        joined = json.loads(ws.recv(timeout=TIMEOUT))
    assert joined["type"] == "joined" and joined["name"] == "Proxied"  # signed in, not a guest


def test_forwarded_headers_are_believed_from_the_proxy_only(tmp_path: Path) -> None:
    live = ThreadServer(ServerConfig(
        db=f"sqlite:///{tmp_path / 'baofen.db'}", forwarded_allow_ips="10.9.9.9", **FAST))
    try:
        forged = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "1.2.3.4"}
        response = httpx.post(f"{live.base}/api/accounts", headers=forged,
                              json={"username": "Direct", "password": PASSWORD})
        assert response.status_code == 201
        assert "secure" not in response.headers["set-cookie"].lower()
    finally:
        live.stop()
