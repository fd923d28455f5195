/* Progressive enhancement only: every page works without JavaScript. No inline script
   anywhere (the Content-Security-Policy forbids it), so page behaviour lives here. */
(function () {
  "use strict";

  // Move focus to the error summary so screen readers announce it and keyboard users start
  // there (the autofocus attribute does the same where the browser honours it).
  function focusErrorSummary() {
    var summary = document.querySelector("[data-error-summary]");
    if (summary) { summary.focus(); }
  }

  // Glossary tooltips: hover and keyboard focus are handled by CSS; here a click or tap on the
  // term's button toggles the tip, and Escape dismisses it.
  function closeAll(except) {
    document.querySelectorAll(".term.is-open").forEach(function (term) {
      if (term !== except) {
        term.classList.remove("is-open");
        var link = term.querySelector(".term-link");
        if (link) { link.setAttribute("aria-expanded", "false"); }
      }
    });
  }

  function setUpTerms() {
    document.documentElement.classList.add("js");  // the tips' CSS toggles on click from now
    document.querySelectorAll(".term-link").forEach(function (link) {
      link.setAttribute("aria-expanded", "false");
      link.addEventListener("click", function () {
        var term = link.closest(".term");
        var open = !term.classList.contains("is-open");
        closeAll(term);
        term.classList.toggle("is-open", open);
        term.classList.remove("is-dismissed");
        link.setAttribute("aria-expanded", open ? "true" : "false");
      });
      link.addEventListener("blur", function () {
        link.closest(".term").classList.remove("is-dismissed");
      });
      link.closest(".term").addEventListener("mouseleave", function (event) {
        event.currentTarget.classList.remove("is-dismissed");
      });
    });
    document.addEventListener("keydown", function (event) {
      if (event.key !== "Escape") { return; }
      document.querySelectorAll(".term").forEach(function (term) {
        if (term.classList.contains("is-open") || term.matches(":hover, :focus-within")) {
          term.classList.add("is-dismissed");
        }
      });
      closeAll(null);
    });
    document.addEventListener("click", function (event) {
      if (!event.target.closest(".term")) { closeAll(null); }
    });
  }

  // A second click on a submit button while the first request is on its way is ignored.
  // The server is idempotent anyway; this only spares the customer a confusing wait.
  function setUpSubmitOnce() {
    document.querySelectorAll("form[data-once]").forEach(function (form) {
      form.addEventListener("submit", function (event) {
        if (form.dataset.submitting === "1") { event.preventDefault(); return; }
        form.dataset.submitting = "1";
        window.setTimeout(function () { form.dataset.submitting = ""; }, 8000);
      });
    });
  }

  // "Clear this answer" under an optional radio question (issue 26): without script it saves
  // the page without that choice; here it empties the choice in place, and shows only while a
  // choice is picked. Focus moves to the first option, as the button it was on disappears.
  function setUpClearAnswer() {
    document.querySelectorAll("button[data-clear-answer]").forEach(function (button) {
      var group = button.closest("fieldset");
      var radios = group.querySelectorAll("input[type=radio][name='" + button.value + "']");
      button.type = "button";  // it clears in place: no longer a way to send the form
      function showWhenPicked() {
        button.hidden = !Array.prototype.some.call(radios, function (r) { return r.checked; });
      }
      radios.forEach(function (radio) { radio.addEventListener("change", showWhenPicked); });
      button.addEventListener("click", function (event) {
        event.preventDefault();
        radios.forEach(function (radio) { radio.checked = false; });
        showWhenPicked();
        if (radios.length) { radios[0].focus(); }
      });
      showWhenPicked();
    });
  }

  // A private resume link carries its token after "#", which browsers never send to the
  // server (so it never reaches an access log). Post it once from the page, then drop it from
  // the address bar and the history.
  function resumeFromFragment() {
    var form = document.querySelector("form[data-resume-form]");
    var token = window.location.hash.slice(1);
    if (!form || !token) { return; }
    history.replaceState(null, "", window.location.pathname);
    form.querySelector("input[name=token]").value = decodeURIComponent(token);
    form.submit();
  }

  // A page waiting for the pipeline (its status section carries data-status-refresh) fetches
  // itself every few seconds and swaps the new status in place: the role="status" line stays in
  // the page, so screen readers announce its new words (aria-live polite). The swap is instant
  // text, with no reload, scroll jump or animation, so it suits people who ask for reduced
  // motion too. It stops when the status no longer waits, or after about ten minutes (the
  // "Check again" link still works, as it does without script).
  var STATUS_EVERY_MS = 5000;
  var STATUS_MAX_TRIES = 120;

  function setUpStatusRefresh() {
    var section = document.querySelector("[data-status][data-status-refresh]");
    if (!section || !window.fetch || !window.DOMParser) { return; }
    var tries = 0;

    function swap(name, fresh) {
      var here = section.querySelector("[" + name + "]");
      var there = fresh.querySelector("[" + name + "]");
      if (here && there && here.innerHTML !== there.innerHTML) { here.innerHTML = there.innerHTML; }
    }

    function poll() {
      tries += 1;
      var url = section.getAttribute("data-status-refresh");
      window.fetch(url, { credentials: "same-origin", cache: "no-store" })
        .then(function (response) {
          if (!response.ok) { throw new Error("status " + response.status); }
          return response.text();
        })
        .then(function (html) {
          var page = new DOMParser().parseFromString(html, "text/html");
          var fresh = page.querySelector("[data-status]");
          if (!fresh) { return; }
          swap("data-status-line", fresh);
          swap("data-status-body", fresh);
          if (fresh.hasAttribute("data-status-refresh") && tries < STATUS_MAX_TRIES) {
            window.setTimeout(poll, STATUS_EVERY_MS);
          } else {
            section.removeAttribute("data-status-refresh");
          }
        })
        .catch(function () {
          if (tries < STATUS_MAX_TRIES) { window.setTimeout(poll, STATUS_EVERY_MS * 2); }
        });
    }

    window.setTimeout(poll, STATUS_EVERY_MS);
  }

  function start() {
    focusErrorSummary();
    setUpTerms();
    setUpSubmitOnce();
    setUpClearAnswer();
    resumeFromFragment();
    setUpStatusRefresh();
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
