"""Measured reality on a submission's page: the verification kit to download, its file to upload,
and what happened when the customer trained (issue 30).

One page for both: the customer opens it in the browser that holds their questionnaire (its
private link, ``questionnaire.access``), our engineers from the admin. The kit's file is read in
memory only, like "fill from a file" (``questionnaire.prefill``); a refused file changes
nothing. The business actions are ``pipeline.measured``'s.
"""

from __future__ import annotations

from pathlib import Path
from uuid import UUID

from django import forms
from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_http_methods, require_safe

from config.ratelimit import RateLimit, hit, too_many_requests
from pipeline.kit_file import MAX_KIT_FILE_BYTES, read_kit_file
from pipeline.measured import compared_version, record_actual_run, record_measurement
from pipeline.models import ActualRun, HardwareMeasurement
from questionnaire import access
from questionnaire.layouts import LaidOut
from questionnaire.models import Submission
from questionnaire.prefill.reading import UnreadableFile
from questionnaire.prefill.uploads import InMemoryCappedUpload
from sizing.public import ACCELERATORS, kit_figure_rows, read_result

KIT_PATH = Path(settings.BASE_DIR) / "kit" / "verify_hardware.py"
KIT_FILENAME = "verify_hardware.py"
# Staff who may change an estimate may add a measurement (it sizes a new version); those who
# record a submission's outcome may record what happened when the customer trained.
MEASURE_PERMISSION = "staff.rerun_sizing"
ACTUAL_PERMISSION = "staff.record_outcome"
# A customer uploads a kit's file a few times at most; reading one costs little.
KIT_READS_PER_HOUR = 30
MEASURED_MESSAGE = (
    "We read the measurements of your {name}. Your estimate is being worked out again with "
    "them: the new version appears on your proposal's page once it is ready."
)
KEPT_MESSAGE = (
    "We read the measurements. They ran on {name}, which is no accelerator of our catalogue, "
    "so they are kept with your estimate but do not change it."
)


class KitFileForm(LaidOut, forms.Form):
    file = forms.FileField(
        label="The kit's results file",
        help_text=f"kit-results-….json, as the kit wrote it (at most {MAX_KIT_FILE_BYTES // 1024} KB).",
        allow_empty_file=True,  # the reader says "The file is empty" in its own words
        error_messages={"required": "Choose the kit's results file."},
    )


def _figure_messages(label: str, what: str, example: str) -> dict[str, str]:
    """Django's messages for one figure of the actual run, each naming the figure: a bare
    "This field is required." beside eight fields leaves the customer guessing which one."""
    return {
        "required": f"Give {what}.",
        "invalid": f"Give {what} as a number, such as {example}.",
        "min_value": f"{label}: give at least %(limit_value)s.",
        "max_value": f"{label}: give at most %(limit_value)s.",
    }


class ActualRunForm(LaidOut, forms.ModelForm):
    """What happened when the customer trained, each figure bounded to what a run can be."""

    accelerator = forms.ChoiceField(
        label="Accelerator",
        choices=[
            ("", "Choose the accelerator"),
            *sorted(((key, spec.name) for key, spec in ACCELERATORS.items()), key=lambda c: c[1]),
        ],
        error_messages={"required": "Choose the accelerator the run trained on."},
    )
    accelerators = forms.IntegerField(
        label="Accelerators used",
        min_value=1,
        max_value=1_000_000,
        error_messages=_figure_messages(
            "Accelerators used", "the number of accelerators the run used", "64"
        ),
    )
    days = forms.FloatField(
        label="Days, first step to last",
        min_value=0.01,
        max_value=3650,
        error_messages=_figure_messages(
            "Days", "the days the run took, from its first step to its last", "12.5"
        ),
    )
    gpu_hours = forms.FloatField(
        label="Accelerator-hours",
        min_value=0.01,
        max_value=1e10,
        help_text="As billed or logged: accelerators × hours they ran.",
        error_messages=_figure_messages(
            "Accelerator-hours", "the run's accelerator-hours, as billed or logged", "19200"
        ),
    )
    tokens = forms.FloatField(
        label="Tokens trained on",
        min_value=1,
        max_value=1e16,
        help_text="Every epoch counted, such as 2e12 for two trillion.",
        error_messages=_figure_messages(
            "Tokens trained on", "the tokens the run trained on, every epoch counted", "2e12"
        ),
    )
    interruptions = forms.IntegerField(
        label="Interruptions",
        min_value=0,
        max_value=100_000,
        initial=0,
        help_text="Times the run stopped on a failure and restarted.",
        error_messages=_figure_messages(
            "Interruptions", "the number of interruptions (0 if the run never stopped)", "3"
        ),
    )
    mfu_percent = forms.FloatField(
        label="MFU, per cent (if known)",
        min_value=0.1,
        max_value=100,
        required=False,
        help_text="Model FLOPs utilisation as your training logs report it.",
        error_messages=_figure_messages("MFU", "the MFU in per cent, or leave it empty", "41"),
    )
    notes = forms.CharField(
        label="Notes",
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
        error_messages={
            "max_length": "Notes: keep them to %(limit_value)d characters (these have "
            "%(show_value)d)."
        },
    )

    field_order = [
        "accelerator",
        "accelerators",
        "days",
        "gpu_hours",
        "tokens",
        "interruptions",
        "mfu_percent",
        "notes",
    ]

    class Meta:
        model = ActualRun
        fields = [
            "accelerator",
            "accelerators",
            "days",
            "gpu_hours",
            "tokens",
            "interruptions",
            "notes",
        ]

    def figures(self) -> dict:
        figures = {name: self.cleaned_data[name] for name in self.Meta.fields}
        percent = self.cleaned_data.get("mfu_percent")
        figures["mfu"] = percent / 100 if percent is not None else None
        return figures


STAFF_SEES = ("staff.view_overview", MEASURE_PERMISSION, ACTUAL_PERMISSION)
PERMISSION_FOR = {"kit": MEASURE_PERMISSION, "actual": ACTUAL_PERMISSION}


def _submission(request: HttpRequest, draft_id: UUID) -> Submission:
    """The submission, if this browser holds its questionnaire or a staff member may see it;
    the same 404 as an unknown one otherwise."""
    submission = Submission.objects.select_related("draft").filter(draft_id=draft_id).first()
    if submission is None or not (
        access.may_open(request, submission.draft)
        or any(_staff(request, permission) for permission in STAFF_SEES)
    ):
        raise Http404("No such estimate.")
    return submission


def _staff(request: HttpRequest, permission: str) -> bool:
    user = request.user
    return bool(user.is_active and user.is_staff and user.has_perm(permission))


def _may(request: HttpRequest, submission: Submission, action: str) -> bool:
    """Customers act on their own estimate; staff with the action's permission."""
    if request.user.is_authenticated and request.user.is_staff:
        return _staff(request, PERMISSION_FOR[action])
    return access.may_open(request, submission.draft)


def _acting_user(request: HttpRequest):
    return request.user if request.user.is_authenticated and request.user.is_staff else None


@never_cache
@require_safe
def download_kit(request: HttpRequest, draft_id: UUID) -> HttpResponse:
    """The verification kit, one Python file, as a download."""
    _submission(request, draft_id)
    response = HttpResponse(KIT_PATH.read_bytes(), content_type="text/x-python; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{KIT_FILENAME}"'
    return response


@csrf_exempt  # the token is checked below, once the upload handler is in place
@never_cache
@require_http_methods(["GET", "POST"])
def hardware_page(request: HttpRequest, draft_id: UUID) -> HttpResponse:
    # As "fill from a file": our handler keeps the upload in memory, set before anything
    # reads the body (the CSRF check reads it, so it runs after).
    request.upload_handlers = [InMemoryCappedUpload(request)]
    return _hardware_page(request, draft_id)


@csrf_protect
def _hardware_page(request: HttpRequest, draft_id: UUID) -> HttpResponse:
    submission = _submission(request, draft_id)
    here = reverse("proposals:hardware", args=[submission.draft_id])
    action = request.POST.get("action") if request.method == "POST" else None
    if action is not None and (
        action not in PERMISSION_FOR or not _may(request, submission, action)
    ):
        raise Http404("No such estimate.")
    upload = KitFileForm(request.POST, request.FILES) if action == "kit" else KitFileForm()
    version = compared_version(submission)
    estimated = read_result(version.result if version is not None else None).accelerator
    actual = (
        ActualRunForm(request.POST)
        if action == "actual"
        else ActualRunForm(initial={"accelerator": estimated})
    )
    if action == "kit" and upload.is_valid():
        decision = hit(RateLimit("kit-file", KIT_READS_PER_HOUR, 3600), request)
        if not decision.allowed:
            return too_many_requests(
                request, decision, context={"what": "files read", "continue_url": here}
            )
        file = upload.cleaned_data["file"]
        try:
            results = read_kit_file(
                file.read(MAX_KIT_FILE_BYTES + 1), reference=submission.reference
            )
        except UnreadableFile as problem:
            upload.add_error("file", str(problem))
        else:
            measurement, version = record_measurement(
                submission=submission,
                results=results,
                file_name=file.name or "",
                user=_acting_user(request),
            )
            message = MEASURED_MESSAGE if version else KEPT_MESSAGE
            shown = (
                ACCELERATORS[measurement.accelerator].name
                if version
                else measurement.accelerator_name
            )
            messages.success(request, message.format(name=shown))
            return redirect(here)
    if action == "actual" and actual.is_valid():
        record_actual_run(
            submission=submission, figures=actual.figures(), user=_acting_user(request)
        )
        messages.success(request, "Thank you: we recorded what happened when you trained.")
        return redirect(here)
    return render(
        request,
        "staff/hardware_page.html",
        {
            "submission": submission,
            "upload": upload,
            "actual": actual,
            "kit_url": reverse("proposals:verification_kit", args=[submission.draft_id]),
            "measurements": [
                (m, kit_figure_rows(m.results))
                for m in HardwareMeasurement.objects.filter(submission=submission)
            ],
            "actual_runs": [
                (run, ACCELERATORS[run.accelerator].name if run.accelerator in ACCELERATORS else "")
                for run in ActualRun.objects.filter(submission=submission)
            ],
        },
    )
