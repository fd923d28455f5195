"""Locust customers who walk the questionnaire the way a browser does.

Each simulated customer starts a questionnaire (POST /q/start/), then for every step GETs the
page, reads the CSRF token and the wizard's management field from the HTML, "thinks", and POSTs
the step. Answers come from the question registry (``questionnaire.questions``): the
registry's example answers or "not sure yet", mixed per question. Every free-text "anything
else" box carries the customer's unique marker, and the contact role carries it too, so the
checker (``check.py``) can find each questionnaire in exactly one Submission afterwards.

Every request is named after its step ("07 POST timeline"), so locust's CSV has one row per
step. What each customer posted is appended to ``--marker-log`` (JSON lines) for the checker.

Usually started by ``run.py``; by hand, against a server on 127.0.0.1::

    .venv/bin/locust -f benchmarks/load/locustfile.py --headless -u 20 -r 5 -t 2m \
        --host http://127.0.0.1:8100 --csv var/load/b --think-min 0 --think-max 0 \
        --questionnaires 0 --marker-log var/load/b-markers.jsonl
"""

from __future__ import annotations

import json
import os
import random
import re
import sys
import time
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import gevent
from locust import HttpUser, events, task
from locust.contrib.fasthttp import FastHttpUser

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

# The registry only defines forms; importing it needs neither settings nor a database.
from questionnaire.questions import QUESTIONS  # noqa: E402

WELCOME, DISCOVERY, CONTACT, REVIEW = "welcome", "discovery", "contact", "review"
# The discovery page is posted empty: the detailed path, every question asked.
STEPS = [WELCOME, DISCOVERY, *(q.slug for q in QUESTIONS), CONTACT, REVIEW]
CSRF_RE = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
MANAGEMENT_RE = re.compile(r'name="(questionnaire_[0-9a-f]{32}-current_step)" value="([^"]*)"')
FINGERPRINT_RE = re.compile(r'name="step_fingerprint" value="([^"]*)"')
REFERENCE_RE = re.compile(r"TQ-\d{4}-\d{5}")
# A customer who sees the friendly 503 page sends the step again, at most this often.
RESUBMITS_AFTER_503 = 2
DRAFT_RE = re.compile(r"^/q/([0-9a-f-]{36})/([a-z_-]+)/$")
# Which HTTP client the customers use: locust's default (python-requests) or its geventhttpclient
# one, which costs the client less CPU per request on the same two cores (run.py --client fast;
# README.md). The same customers, requests, names and checks either way.
CLIENTS = {"requests": HttpUser, "fast": FastHttpUser}
CLIENT = os.environ.get("LOAD_CLIENT", "requests")
# A step's form encoded as a browser does, a list as the same name repeated (a checkbox
# question): python-requests does this with a dict, geventhttpclient would not.
FORM_HEADERS = {"Content-Type": "application/x-www-form-urlencoded"}
if CLIENT not in CLIENTS:
    raise SystemExit(f"LOAD_CLIENT must be one of {', '.join(CLIENTS)}, not {CLIENT!r}")


@events.init_command_line_parser.add_listener
def _add_options(parser: Any) -> None:
    group = parser.add_argument_group("questionnaire")
    group.add_argument("--think-min", type=float, default=5.0, help="think time per step, min [s]")
    group.add_argument("--think-max", type=float, default=30.0, help="think time per step, max [s]")
    group.add_argument(
        "--questionnaires",
        type=int,
        default=1,
        help="questionnaires per customer; 0 = start new ones for --loop-seconds",
    )
    group.add_argument(
        "--loop-seconds",
        type=float,
        default=60.0,
        help="with --questionnaires 0: start no new questionnaire after this many seconds",
    )
    group.add_argument(
        "--answers",
        choices=("example", "not_sure", "mixed"),
        default="mixed",
        help="registry examples, 'not sure yet' everywhere, or a per-question mix",
    )
    group.add_argument("--marker-log", default="", help="append what each customer posted here")
    group.add_argument("--scenario", default="load", help="marker prefix")


def answers_for(marker: str, mode: str) -> dict[str, dict[str, Any]]:
    """Form data (without prefixes) per step: examples and/or 'not sure', marker in notes."""
    rng = random.Random(marker)  # noqa: S311 - test data, not security
    posted: dict[str, dict[str, Any]] = {}
    for question in QUESTIONS:
        use_example = mode == "example" or (mode == "mixed" and rng.random() < 0.7)
        note = f"{marker} q{question.number}: the ‘anything else’ box, with <b>markup</b> & ümlauts"
        data = dict(question.example.data) if use_example else {"not_sure": "on"}
        data["notes"] = note
        posted[question.slug] = data
    posted[CONTACT] = {
        "name": "Load Test Customer",
        "email": f"{marker.lower()}@load.example",
        "company": "Load Test Ltd",
        "role": f"Capacity planner {marker}",
        "country": "Germany",
        "consent": "on",
    }
    posted[REVIEW] = {}
    posted[WELCOME] = {}
    posted[DISCOVERY] = {}
    return posted


def _write_log(path: str, record: dict[str, Any]) -> None:
    if not path:
        return
    with open(path, "a", encoding="utf-8") as handle:  # one gevent process: no interleaving
        handle.write(json.dumps(record, ensure_ascii=False) + "\n")


class Customer(CLIENTS[CLIENT]):  # type: ignore[misc, valid-type]
    """One customer: think, answer, next page; ``--questionnaires`` times."""

    finished_users = 0
    started_at = 0.0

    def wait_time(self) -> float:  # between questionnaires; think time is inside the walk
        return 0.0

    def on_start(self) -> None:
        self.done = 0
        self.resubmitted = 0
        Customer.started_at = Customer.started_at or time.monotonic()

    def think(self) -> None:
        options = self.environment.parsed_options
        if options.think_max > 0:
            gevent.sleep(random.uniform(options.think_min, options.think_max))  # noqa: S311

    @task
    def complete_questionnaire(self) -> None:
        options = self.environment.parsed_options
        marker = f"{options.scenario.upper()}-{uuid.uuid4().hex[:16]}"
        posted = answers_for(marker, options.answers)
        record: dict[str, Any] = {"marker": marker, "completed": False, "posted": posted}
        self.resubmitted = 0
        try:
            record.update(self.walk(posted))
            record["completed"] = True
        except _StepFailed as failure:
            record["failed_at"] = str(failure)
        finally:
            record["resubmitted_after_503"] = self.resubmitted
            _write_log(options.marker_log, record)
        self.done += 1
        if options.questionnaires:
            finished = self.done >= options.questionnaires
        else:
            finished = time.monotonic() - Customer.started_at >= options.loop_seconds
        if finished:
            Customer.finished_users += 1
            if Customer.finished_users >= options.num_users:
                # Everyone is done: end the run now instead of waiting for --run-time.
                gevent.spawn_later(1, self.environment.runner.quit)
            # Stay (idle) rather than stop: while locust is still ramping up it would replace
            # a stopped customer with a new one, and the run would make more questionnaires.
            while True:
                gevent.sleep(3600)

    def walk(self, posted: dict[str, dict[str, Any]]) -> dict[str, Any]:
        page = self._get("/", "00 GET home")
        token = CSRF_RE.search(page).group(1)  # _get checked it is there
        with self.client.post(
            "/q/start/",
            data={"csrfmiddlewaretoken": token},
            name="00 POST start",
            allow_redirects=False,
            catch_response=True,
        ) as response:
            match = DRAFT_RE.match(response.headers.get("Location", ""))
            if response.status_code != 302 or not match or match.group(2) != WELCOME:
                response.failure(
                    f"start: {response.status_code} {response.headers.get('Location')}"
                )
                raise _StepFailed("start")
        draft_id = match.group(1)
        url = response.headers["Location"]
        for number, step in enumerate(STEPS, start=1):
            page = self._get(url, f"{number:02d} GET {step}", step=step)
            token = CSRF_RE.search(page).group(1)
            management = MANAGEMENT_RE.search(page)
            fingerprint = FINGERPRINT_RE.search(page)
            self.think()
            data: dict[str, Any] = {
                "csrfmiddlewaretoken": token,
                management.group(1): step,
                "step_fingerprint": fingerprint.group(1) if fingerprint else "",
            }
            data.update({f"{step}-{key}": value for key, value in posted[step].items()})
            expected = (
                f"/q/{draft_id}/confirmation/"
                if step == REVIEW
                else f"/q/{draft_id}/{STEPS[number]}/"
            )
            url = self._post_step(url, data, f"{number:02d} POST {step}", expected)
        page = self._get(url, f"{len(STEPS) + 1:02d} GET confirmation", form=False)
        reference = REFERENCE_RE.search(page)
        return {"draft_id": draft_id, "reference": reference.group(0) if reference else ""}

    def _post_step(self, url: str, data: dict[str, Any], name: str, expected: str) -> str:
        """POST a page; on the "please send this step again" 503 (the database was restarted)
        do what the page asks, as a customer would. The 503 still counts as a failed request;
        the marker check then shows whether anything was lost."""
        for attempt in range(1, RESUBMITS_AFTER_503 + 2):
            with self.client.post(
                url,
                data=urlencode(data, doseq=True),
                headers=FORM_HEADERS,
                name=name,
                allow_redirects=False,
                catch_response=True,
            ) as response:
                location = response.headers.get("Location", "")
                if response.status_code == 302 and location == expected:
                    return location
                response.failure(f"{name}: {response.status_code} to {location!r}")
                if response.status_code != 503 or attempt > RESUBMITS_AFTER_503:
                    raise _StepFailed(name)
            self.resubmitted += 1
            gevent.sleep(2.0 * attempt)
        raise _StepFailed(name)

    def _get(self, url: str, name: str, *, step: str = "", form: bool = True) -> str:
        """GET a page; a failure unless it is a 200 with the form a browser would post."""
        with self.client.get(url, name=name, catch_response=True) as response:
            problem = ""
            if response.status_code != 200:
                problem = f"status {response.status_code}"
            elif form and not CSRF_RE.search(response.text):
                problem = "no CSRF token in the page"
            elif step:
                management = MANAGEMENT_RE.search(response.text)
                if management is None or management.group(2) != step:
                    problem = "wizard management field missing or naming another step"
            if problem:
                response.failure(f"{name}: {problem}")
                raise _StepFailed(name)
            return response.text


class _StepFailed(Exception):
    """A step did not do what a browser would expect; already counted as a locust failure."""
