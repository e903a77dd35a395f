"""A tiny site for testing the crawler itself: a page whose link and form lead to crashes
(beside the real site, whose error pages name its URLs)."""

from django.http import HttpResponse
from django.shortcuts import redirect
from django.urls import path
from django.views.decorators.csrf import csrf_exempt

from battles.models import Battle
from config.urls import urlpatterns as site_urlpatterns


def start(request):
    return HttpResponse(
        '<a href="/crawl-test/broken/">broken</a> <a href="https://elsewhere.example/">away</a>'
        '<a href="#top">top</a> <span hx-get="/crawl-test/fragment/"></span>'
        '<form method="post" action="/crawl-test/change/"><input name="name" value="Red">'
        '<select name="side"><option value="1">One</option><option value="2" selected>Two'
        '</option></select><input type="checkbox" name="flag" value="yes">'
        '<textarea name="notes">kept</textarea><button name="go" value="now">Go</button></form>',
        content_type="text/html",
    )


def broken(request):
    raise RuntimeError("the page fell over")


def fragment(request):
    status = 200 if request.headers.get("HX-Request") else 400
    return HttpResponse("<p>part</p>", content_type="text/html", status=status)


@csrf_exempt
def change(request):
    Battle.objects.update(scenario=f"{request.POST.dict()}")
    return redirect("/crawl-test/after/")


def after(request):
    if Battle.objects.exclude(scenario="").exists():  # only broken in the world the form made
        return HttpResponse("gone wrong", status=503)
    return HttpResponse("fine", content_type="text/html")


urlpatterns = [
    path("crawl-test/", start),
    path("crawl-test/broken/", broken),
    path("crawl-test/fragment/", fragment),
    path("crawl-test/change/", change),
    path("crawl-test/after/", after),
    *site_urlpatterns,
]
