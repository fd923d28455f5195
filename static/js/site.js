/* Progressive enhancement only: every page works without JavaScript. */
