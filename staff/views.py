"""The staff overview page (shown inside the admin's look and navigation)."""

from django.contrib import admin
from django.contrib.admin.views.decorators import staff_member_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.views.decorators.http import require_safe

from staff.overview import build_overview


@require_safe
@staff_member_required
def overview(request: HttpRequest) -> HttpResponse:
    if not request.user.has_perm("staff.view_overview"):
        raise PermissionDenied
    context = {
        **admin.site.each_context(request),
        "title": "Staff overview",
        "overview": build_overview(),
    }
    return TemplateResponse(request, "staff/overview.html", context)
