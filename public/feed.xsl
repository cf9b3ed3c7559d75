<?xml version="1.0" encoding="utf-8"?>
<!-- Shows the Atom and RSS feeds as a readable page when opened in a browser. -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform" xmlns:atom="http://www.w3.org/2005/Atom">
  <xsl:output method="html" encoding="utf-8" indent="yes"/>
  <xsl:template match="/">
    <html lang="en">
      <head>
        <meta charset="utf-8"/>
        <meta name="viewport" content="width=device-width, initial-scale=1"/>
        <title>Feed: <xsl:value-of select="atom:feed/atom:title | rss/channel/title"/></title>
        <link rel="stylesheet" href="/css/site.css"/>
      </head>
      <body>
        <main id="main" class="wrap prose">
          <p class="callout callout-note" role="note">This is a web feed. Copy its address into a feed reader to follow new posts.</p>
          <h1><xsl:value-of select="atom:feed/atom:title | rss/channel/title"/></h1>
          <p class="lede"><xsl:value-of select="atom:feed/atom:subtitle | rss/channel/description"/></p>
          <ol class="post-list">
            <xsl:for-each select="atom:feed/atom:entry | rss/channel/item">
              <li>
                <h2 class="post-list-title"><a href="{atom:link/@href | link}"><xsl:value-of select="atom:title | title"/></a></h2>
                <p class="post-meta"><xsl:value-of select="substring(atom:published | pubDate, 1, 16)"/></p>
                <xsl:if test="atom:summary"><p><xsl:value-of select="atom:summary"/></p></xsl:if>
              </li>
            </xsl:for-each>
          </ol>
        </main>
      </body>
    </html>
  </xsl:template>
</xsl:stylesheet>
